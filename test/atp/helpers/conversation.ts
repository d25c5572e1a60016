// One client's conversation with a protected server under out-of-state protection (SYN protection
// off, mitigating from the first packet): packets written as the client's (c) and the server's (s),
// and the reason protection gives each of the client's packets.
import { AdvancedTcpProtection, type AtpOptionsInput } from '../../../src/atp/index.js';
import { ALWAYS_MITIGATING, SERVER, rule, snapshot } from './config.js';
import { run, type Pkt } from './traffic.js';

export const CLIENT = '198.51.100.7';

/** The client's packet at time t (port 40000 to 443). */
export const c = (t: number, flags: number, seq: number, more: Partial<Pkt> = {}): Pkt => ({ t, src: CLIENT, dst: SERVER, sport: 40000, dport: 443, flags, seq, ...more });

/** The server's packet at time t, on the protected side. */
export const s = (t: number, flags: number, seq: number, ack: number, more: Partial<Pkt> = {}): Pkt => ({ t, src: SERVER, dst: CLIENT, sport: 443, dport: 40000, flags, seq, ack, egress: true, ...more });

/** The reasons out-of-state protection gives the client's packets (null: in state), the protected side's packets left out. */
export function reasons(packets: Pkt[], options: AtpOptionsInput = {}): Array<string | null> {
  const atp = AdvancedTcpProtection.fromSnapshot(snapshot({ syn: [rule('disabled')], oos: [rule('enabled')] }), { ...ALWAYS_MITIGATING, ...options });
  return run(atp, packets)
    .seen.filter((_, i) => !packets[i].egress)
    .map((x) => x.reason);
}
