// The built-in scenarios, each a flow spec written out in full, so that they run through the same
// validation and generator as a user's JSON spec (and a user can start from `edgesim synth
// SCENARIO --print-spec`). Times are fractions of the capture's duration, so `--duration` stretches
// a scenario without changing its shape; sizes are shares of `--packets`. `--servers` sends every
// part to the user's own addresses instead of the demo's.
import { KINDS } from './spec.js';
import type { PartKind } from './spec.js';

/** Options a scenario takes from the command line. */
export interface ScenarioOptions {
  /** capture duration in seconds */
  duration: number;
  /** source countries of the legitimate traffic (default: every country of the table) */
  countries?: string[];
  /** the servers every part goes to, addresses or CIDRs (default: the demo's 203.0.113.0/24 and 2001:db8:ffff::/48 hosts) */
  servers?: string[];
}

type RawPart = Record<string, unknown>;

const WEB = ['203.0.113.10', '2001:db8:ffff::10'];
const WEB_FARM = ['203.0.113.10', '203.0.113.11', '203.0.113.20', '2001:db8:ffff::10', '2001:db8:ffff::11'];
const TARGET = ['203.0.113.10'];

interface Scenario {
  description: string;
  parts(o: ScenarioOptions): RawPart[];
}

/** Every built-in scenario by name. */
export const SCENARIOS: Readonly<Record<string, Scenario>> = {
  handshakes: {
    description: 'legitimate TCP sessions (HTTP, TLS, SSH) over IPv4 and IPv6 to servers in 203.0.113.0/24 and 2001:db8:ffff::/48',
    parts: () => [{ name: 'handshakes', kind: 'handshake', share: 1, servers: WEB_FARM, ports: [80, 443, 22] }],
  },
  'syn-flood': {
    description: 'spoofed random-source SYNs to 203.0.113.10:80 for the middle two thirds, among legitimate sessions (3%)',
    parts: ({ duration: d }) => [
      { name: 'legit', kind: 'handshake', share: 0.03, servers: WEB, ports: [80, 443] },
      { name: 'syn-flood', kind: 'syn-flood', share: 0.97, start: d / 6, duration: (2 * d) / 3, servers: TARGET, ports: [80] },
    ],
  },
  'ack-flood': {
    description: 'random-source ACKs and RSTs (20%) with random sequence numbers to 203.0.113.10:80/443, among legitimate sessions (10%)',
    parts: ({ duration: d }) => [
      { name: 'legit', kind: 'handshake', share: 0.1, servers: WEB, ports: [80, 443] },
      { name: 'ack-flood', kind: 'ack-flood', share: 0.9, start: d / 6, duration: (2 * d) / 3, servers: TARGET, ports: [80, 443], rst: 0.2 },
    ],
  },
  mixed: {
    description: 'TCP sessions to 203.0.113.10 (80/443/22), DNS to 198.51.100.53, QUIC, pings, a SYN flood burst on :80 and out-of-state ACKs on :443',
    parts: ({ duration: d }) => [
      { name: 'web', kind: 'handshake', share: 0.45, servers: WEB, ports: [80, 443, 22] },
      { name: 'dns', kind: 'dns', share: 0.12 },
      { name: 'quic', kind: 'udp', share: 0.08, servers: WEB, ports: [443] },
      { name: 'ping', kind: 'icmp', share: 0.03, servers: WEB },
      { name: 'syn-flood', kind: 'syn-flood', share: 0.25, start: d / 3, duration: d / 6, servers: TARGET, ports: [80] },
      { name: 'out-of-state', kind: 'ack-flood', share: 0.07, servers: WEB, ports: [443], rst: 0, sources: ['0.0.0.0/0', '2000::/3'], v6: 0.2 },
    ],
  },
  geo: {
    description: 'legitimate TCP sessions from the address blocks of chosen countries (--countries, default US,DE,BR)',
    parts: () => [{ name: 'geo', kind: 'handshake', share: 1, servers: WEB, ports: [80, 443] }],
  },
};

const GEO_DEFAULT = ['US', 'DE', 'BR'];

// Spoofed sources come from the whole IPv4 space; servers given only as IPv6 get floods from IPv6's
// global unicast space instead.
function spoofedFor(servers: readonly string[]): string[] | undefined {
  return servers.some((s) => !s.includes(':')) ? undefined : ['2000::/3'];
}

/** The flow spec (as JSON data, not yet validated) of a built-in scenario. */
export function scenarioSpec(name: string, o: ScenarioOptions): { parts: RawPart[] } {
  const scenario = SCENARIOS[name]!;
  const countries = o.countries ?? (name === 'geo' ? GEO_DEFAULT : undefined);
  const parts = scenario.parts(o).map((p) => {
    let part = countries && KINDS[p.kind as PartKind].label === 'legit' && p.sources === undefined ? { ...p, countries } : p;
    if (o.servers !== undefined) {
      part = { ...part, servers: o.servers };
      const spoofed = KINDS[p.kind as PartKind].sources === 'countries' || p.sources !== undefined ? undefined : spoofedFor(o.servers);
      if (spoofed !== undefined) part.sources = spoofed;
    }
    return part;
  });
  return { parts };
}
