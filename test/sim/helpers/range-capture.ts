// Captures for the parallel replay's tests: every kind of packet whose counting depends on order or
// on where a range starts — drops from thousands of distinct addresses (the top-address counters
// take over counters), timestamps out of order, decode notes, frames without IP, IPv6, zero-filled
// payloads (which look like chains of empty record headers) — and optionally one big packet whose
// payload is itself a chain of plausible record headers, placed where a two-range cut falls.
import { PcapWriter } from '../../../src/capture/pcap-writer.js';
import { FrameBuilder, PROTO_TCP, PROTO_UDP } from '../../../src/capture/synth/frame-builder.js';
import type { Snapshot } from '../../../src/config/snapshot.js';

/** a small deterministic generator (xorshift), so a failing case can be replayed */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x1_0000_0000;
  };
}

export interface RangeCaptureOptions {
  packets: number;
  seed: number;
  /** a big packet holding a chain of fake record headers, placed where the middle of the file falls */
  fakeChainInMiddle?: boolean;
}

const START = 1_700_000_000;

/** Writes the capture; returns its size in bytes. */
export async function writeRangeCapture(file: string, opts: RangeCaptureOptions): Promise<void> {
  const rnd = random(opts.seed);
  const fb = new FrameBuilder();
  const w = PcapWriter.open(file, { nanosecond: opts.seed % 2 === 0 });
  let ns = 0;
  const half = Math.floor(opts.packets / 2);
  for (let i = 0; i < opts.packets; i++) {
    ns += Math.floor(rnd() * 2_000_000);
    // now and then a packet stamped 5 ms before the one before it
    const t = i % 97 === 50 ? ns - 5_000_000 : ns;
    const sec = START + Math.floor(t / 1e9);
    const nsec = t % 1e9;
    if (opts.fakeChainInMiddle && i === half) {
      w.write(fakeChain(sec), sec, nsec);
      continue;
    }
    const kind = rnd();
    const src = (0x0a000000 + Math.floor(rnd() * 3000)) >>> 0;
    const dst = 0xcb007100 + Math.floor(rnd() * 16);
    let end: number;
    if (kind < 0.02) {
      // ARP: no IP
      const arp = new Uint8Array(42);
      arp[12] = 0x08;
      arp[13] = 0x06;
      w.write(arp, sec, nsec);
      continue;
    } else if (kind < 0.1) {
      const v6 = Uint32Array.of(0x20010db8, 0, 0, src);
      const l4 = fb.ipv6(true, v6, Uint32Array.of(0x20010db8, 0, 1, dst), PROTO_UDP, 64, i);
      end = fb.udp(1000 + (i % 50), 53) + Math.floor(rnd() * 200);
      void l4;
    } else if (kind < 0.5) {
      fb.ipv4(true, src, dst, PROTO_UDP, 64, i);
      end = fb.udp(1000 + (i % 50), rnd() < 0.5 ? 53 : 123) + Math.floor(rnd() * 600);
    } else {
      fb.ipv4(true, src, dst, PROTO_TCP, 1 + Math.floor(rnd() * 64), i);
      end = fb.tcp(40000 + (i % 1000), rnd() < 0.5 ? 80 : 22, i, 0, 0x02, 1024, 0) + Math.floor(rnd() * 1400);
    }
    // zero-filled payloads
    fb.buf.fill(0, fb.l4 + 20, end);
    const len = fb.finish(end);
    // a few frames cut short inside their IP header: a decode note
    const keep = kind > 0.97 ? 20 : len;
    w.write(fb.buf.slice(0, keep), sec, nsec, len);
  }
  await w.close();
}

// 60,000 bytes of payload that read as records of 100 bytes stamped at `sec`
function fakeChain(sec: number): Uint8Array {
  const frame = new Uint8Array(60_000);
  frame[12] = 0x88;
  frame[13] = 0xb5; // a local experimental EtherType: not IP
  const v = new DataView(frame.buffer);
  for (let p = 14; p + 16 <= frame.length; p += 116) {
    v.setUint32(p, sec, true);
    v.setUint32(p + 4, 1000, true);
    v.setUint32(p + 8, 100, true);
    v.setUint32(p + 12, 100, true);
  }
  return frame;
}

/** Rules that drop a good share of the packets, from many sources. */
export function rangeSnapshot(): Snapshot {
  return {
    rulesets: [
      {
        name: 'ranges',
        kind: 'root',
        phase: 'edge_transit',
        rules: [
          { ref: 'dns', action: 'log', expression: 'udp.dstport == 53' },
          { ref: 'ntp', action: 'block', expression: 'udp.dstport == 123' },
          { ref: 'ssh', action: 'block', expression: 'tcp.dstport == 22 and ip.ttl < 40' },
          { ref: 'v6', action: 'block', expression: 'ip.src in { 2001:db8::/64 } and udp.srcport < 1010' },
          { ref: 'short', action: 'block', expression: 'ip.len > 1000' },
        ],
      },
    ],
  };
}
