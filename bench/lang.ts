// Rules-language figures on one core: compiled-predicate evaluations per second for a port set and
// for a 100,000-prefix IP list, the same expressions through the reference interpreter (the
// naive peer, measured in the same run), compile time of a 200-rule ruleset, parse throughput,
// and `matches` over packet payloads: our linear-time automaton next to JavaScript's backtracking
// RegExp on the same bytes as latin1 text (what `matches` used before; fast, but exponential on
// some patterns).
// Packets are plain objects with a hand-written binding, as a decoder would fill them.
import { compile, FIREWALL_SCHEME, interpret, parse, type Binding } from '../src/lang/index.js';
import { IpSetBuilder } from '../src/net/ip-set.js';
import { compileRegex } from '../src/lang/regex/compile.js';
import type { BenchRow, BenchSuite } from './types.js';

class Pkt {
  tcp = true;
  dstPort = 0;
  srcPort = 0;
  src4 = 0;
  dst4 = 0;
  proto = new Uint8Array([0x74, 0x63, 0x70]);
  ttl = 64;
}

const always = () => true;
const never = () => false;
const EMPTY = new Uint8Array(0);
const ZERO6 = new Uint32Array(4);

/** Fields the benchmark packets never have (the rules still compile against them). */
function absent(): Binding<Pkt> {
  const out: Record<string, Binding<Pkt>[string]> = {};
  for (const name of FIREWALL_SCHEME.fieldNames()) {
    const t = FIREWALL_SCHEME.field(name)!.type;
    if (t === 'Bool') out[name] = { type: t, has: never, get: never };
    else if (t === 'Int') out[name] = { type: t, has: never, get: () => 0 };
    else if (t === 'Ip') out[name] = { type: t, has: never, family: () => 4, v4: () => 0, v6: () => ZERO6 };
    else out[name] = { type: 'Bytes', has: never, bytes: () => EMPTY, start: () => 0, end: () => 0 };
  }
  return out;
}

const binding: Binding<Pkt> = {
  ...absent(),
  'tcp.dstport': { type: 'Int', has: (p) => p.tcp, get: (p) => p.dstPort },
  'tcp.srcport': { type: 'Int', has: (p) => p.tcp, get: (p) => p.srcPort },
  'udp.dstport': { type: 'Int', has: (p) => !p.tcp, get: (p) => p.dstPort },
  'ip.ttl': { type: 'Int', has: always, get: (p) => p.ttl },
  'ip.src': { type: 'Ip', has: always, family: () => 4, v4: (p) => p.src4, v6: () => new Uint32Array(4) },
  'ip.dst': { type: 'Ip', has: always, family: () => 4, v4: (p) => p.dst4, v6: () => new Uint32Array(4) },
  'ip.proto': { type: 'Bytes', has: always, bytes: (p) => p.proto, start: () => 0, end: (p) => p.proto.length },
  'tcp.flags.syn': { type: 'Bool', has: (p) => p.tcp, get: (p) => (p.srcPort & 1) === 0 },
  'tcp.flags.ack': { type: 'Bool', has: (p) => p.tcp, get: (p) => (p.srcPort & 2) === 0 },
};

function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0);
}

function packets(n: number): Pkt[] {
  const next = lcg(7);
  return Array.from({ length: n }, () => {
    const p = new Pkt();
    p.dstPort = [80, 443, 22, 8080][next() & 3];
    p.srcPort = next() & 0xffff;
    p.src4 = next();
    p.dst4 = next();
    return p;
  });
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[xs.length >> 1];
}

// A fresh loop function per measurement, so one predicate's call-site feedback does not slow the next.
type Loop = (pred: (p: Pkt) => boolean, ps: Pkt[], rounds: number) => number;
const loopSource = 'let m = 0; for (let r = 0; r < rounds; r++) for (let i = 0; i < ps.length; i++) if (pred(ps[i])) m++; return m;';

/** evaluations per second: median of 5 runs over the packet array, `rounds` times each */
function rate(pred: (p: Pkt) => boolean, ps: Pkt[], rounds: number): { perSecond: number; matches: number } {
  const loop = new Function('pred', 'ps', 'rounds', loopSource) as Loop;
  let matches = 0;
  const runs = [0, 1, 2, 3, 4].map(() => {
    const t0 = process.hrtime.bigint();
    matches += loop(pred, ps, rounds);
    return (ps.length * rounds) / (Number(process.hrtime.bigint() - t0) / 1e9);
  });
  return { perSecond: median(runs), matches };
}

function ruleset(): string[] {
  const next = lcg(99);
  const ip4 = () => [next() & 255, next() & 255, next() & 255, 0].join('.');
  const shapes = [
    () => `tcp.dstport in {${next() % 1024} ${1024 + (next() % 60000)}..65535}`,
    () => `ip.src in {${ip4()}/24 ${ip4()}/24} and tcp.dstport == ${next() % 65536}`,
    () => `ip.proto eq "udp" and udp.dstport in {53 123 ${next() % 65536}} and not ip.src.country in {"US" "DE"}`,
    () => `ip.dst in $endpoints and tcp.flags.syn and not tcp.flags.ack and ip.ttl < ${1 + (next() % 255)}`,
    () => `(icmp.type eq 0 or icmp.type eq 3 or icmp.type eq 11) and ip.dst == ${ip4().replace(/0$/, '1')}`,
    () => `bit_slice(tcp, 96, 100) > 5 or ip.geoip.country == "BR" or cf.colo.region wildcard "w*"`,
    () => `ip.src.asnum in {13335 15169 ${next() % 400000}} xor ip.len > ${next() % 1500}`,
  ];
  return Array.from({ length: 200 }, (_, i) => shapes[i % shapes.length]());
}

/** MB/s of `matches` over 1,400-byte payloads that mostly do not match, ours and a JS RegExp. */
function regexRows(): BenchRow[] {
  const next = lcg(5);
  const payloads = Array.from({ length: 256 }, () => Uint8Array.from({ length: 1400 }, () => 0x20 + (next() % 90)));
  const texts = payloads.map((b) => Buffer.from(b).toString('latin1'));
  const rows: BenchRow[] = [];
  for (const pattern of ['(?i)user-agent: *curl', '[0-9]{4}-[0-9]{2}-[0-9]{2}T']) {
    const ours = compileRegex(pattern);
    if (typeof ours === 'string') throw new Error(ours);
    const js = new RegExp(pattern.replace('(?i)', ''), pattern.startsWith('(?i)') ? 'i' : '');
    const mbps = (run: () => number) =>
      median([0, 1, 2].map(() => {
        const t0 = process.hrtime.bigint();
        const bytes = run();
        return bytes / (Number(process.hrtime.bigint() - t0) / 1e3);
      }));
    const oursRate = mbps(() => {
      let n = 0;
      for (let r = 0; r < 20; r++) for (const b of payloads) (ours.test(b, 0, b.length), (n += b.length));
      return n;
    });
    const jsRate = mbps(() => {
      let n = 0;
      for (let r = 0; r < 20; r++) for (const t of texts) (js.test(t), (n += t.length));
      return n;
    });
    rows.push({ suite: 'lang', name: `matches "${pattern}", linear automaton`, value: oursRate, unit: 'MB/s', note: `${(oursRate / jsRate).toFixed(2)}x a JS RegExp on the same text (${jsRate.toFixed(0)} MB/s)` });
  }
  return rows;
}

export const suite: BenchSuite = async () => {
  const rows: BenchRow[] = [];
  const ps = packets(1 << 16);

  const portAst = parse('tcp.dstport in {80 443}', FIREWALL_SCHEME);
  const port = rate(compile(portAst, binding), ps, 64);
  rows.push({ suite: 'lang', name: 'tcp.dstport in {80 443}, compiled', value: port.perSecond, unit: 'evals/s', note: `target >= 20 M/s; ${ps.length} packets x 64` });
  const hand = rate((p) => p.tcp && (p.dstPort === 80 || p.dstPort === 443), ps, 64);
  rows.push({ suite: 'lang', name: 'the same test written by hand in TypeScript', value: hand.perSecond, unit: 'evals/s', note: `compiled reaches ${Math.round((100 * port.perSecond) / hand.perSecond)}% of it` });
  const portPeer = rate((p) => interpret(portAst, binding, p), ps, 1);
  rows.push({ suite: 'lang', name: 'tcp.dstport in {80 443}, reference interpreter', value: portPeer.perSecond, unit: 'evals/s', note: `compiled is ${(port.perSecond / portPeer.perSecond).toFixed(0)}x faster` });

  const next = lcg(42);
  const builder = new IpSetBuilder();
  for (let i = 0; i < 100_000; i++) builder.addPrefix4(next() & 0xffffff00, 20 + (next() % 13));
  const list = builder.build();
  const listAst = parse('ip.src in $list', FIREWALL_SCHEME);
  const listPred = compile(listAst, binding, { lists: () => list });
  const listRate = rate(listPred, ps, 16);
  const direct = rate((p) => list.has4(p.src4), ps, 16);
  rows.push({ suite: 'lang', name: 'IpSet.has4 on the same list, called directly', value: direct.perSecond, unit: 'evals/s', note: `compiled reaches ${Math.round((100 * listRate.perSecond) / direct.perSecond)}% of it` });
  rows.push({ suite: 'lang', name: 'ip.src in $list (100,000 prefixes), compiled', value: listRate.perSecond, unit: 'evals/s', note: `target >= 5 M/s; ${list.ranges4} merged ranges` });

  const rules = ruleset();
  const lists = { lists: () => list };
  const compileMs = median(
    [0, 1, 2, 3, 4].map(() => {
      const t0 = process.hrtime.bigint();
      for (const r of rules) compile(parse(r, FIREWALL_SCHEME), binding, lists);
      return Number(process.hrtime.bigint() - t0) / 1e6;
    }),
  );
  rows.push({ suite: 'lang', name: 'parse + compile a 200-rule ruleset', value: compileMs, unit: 'ms', note: 'target < 100 ms; median of 5, 7 rule shapes' });

  const bytes = rules.reduce((n, r) => n + r.length, 0);
  const parseRuns = [0, 1, 2, 3, 4].map(() => {
    const t0 = process.hrtime.bigint();
    for (let k = 0; k < 10; k++) for (const r of rules) parse(r, FIREWALL_SCHEME);
    return Number(process.hrtime.bigint() - t0) / 1e9;
  });
  const parseSec = median(parseRuns);
  rows.push(...regexRows());
  rows.push({ suite: 'lang', name: 'parse throughput', value: (rules.length * 10) / parseSec, unit: 'exprs/s', note: `${((bytes * 10) / parseSec / 1e6).toFixed(2)} MB/s, mean ${Math.round(bytes / rules.length)} bytes` });
  return rows;
};
