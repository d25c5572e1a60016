// Deciding each packet of a capture read on a built path, with the firewall's fast path wherever it
// applies: the fast path's frame decoder goes to the read (it decides the frame from its bytes, or
// decodes it fully when it cannot), and decide() then takes the firewall's result it already wrote,
// or runs the packet path on the decoded record. Replay, match, diff and bench decide packets this
// one way, so their results cannot drift apart; the fast path's results equal the packet path's
// (test/fastpath). Deciders for two paths over one read (diff) share one frame decoder (shared()).
import { decodeFrameAt } from '../capture/decode/link-up.js';
import type { FrameDecoder } from '../capture/frame-delivery.js';
import type { PacketRecord } from '../capture/record.js';
import { FastDecoding } from '../fastpath/fast-decoding.js';
import { FastFirewall } from '../fastpath/fast-firewall.js';
import type { BuiltPath } from './build.js';
import type { PacketPath } from './packet-path.js';
import type { PacketVerdict } from './verdict.js';

/**
 * The fast path for a built path, or null where it does not apply: with protection on, Advanced TCP
 * Protection reads every packet's decoded fields.
 */
export function fastFirewallFor(built: Pick<BuiltPath, 'firewall' | 'atp' | 'lists'>): FastFirewall | null {
  return built.atp.active ? null : FastFirewall.compile(built.firewall, { lists: built.lists });
}

export class PacketDecider {
  /** the verdict decide() writes (one object, reused for every packet) */
  readonly verdict: PacketVerdict;
  /** the frame decoder to read the capture with */
  decodeFrame: FrameDecoder;
  private readonly fast: FastDecoding | null;

  constructor(private readonly path: PacketPath, fastFirewall: FastFirewall | null) {
    this.verdict = path.newVerdict();
    this.fast = fastFirewall === null ? null : new FastDecoding(fastFirewall, this.verdict.firewall);
    this.decodeFrame = this.fast === null ? decodeFrameAt : this.fast.decodeFrame;
  }

  /**
   * Makes the deciders read one capture together: their decodeFrame becomes one decoder that lets
   * each fast path decide the frame and decodes it in full once when any cannot (or has none).
   */
  static shared(deciders: readonly PacketDecider[]): void {
    const decode = FastDecoding.sharedDecoder(deciders.map((d) => d.fast));
    for (const d of deciders) d.decodeFrame = decode;
  }

  /** A decider for `built`; `fastPath` false decides every packet on the packet path (the reference). */
  static of(built: BuiltPath, fastPath = true): PacketDecider {
    return new PacketDecider(built.path, fastPath ? fastFirewallFor(built) : null);
  }

  /** Decides the packet just read into `rec` with this decider's decodeFrame. */
  decide(rec: PacketRecord): PacketVerdict {
    if (this.fast !== null && this.fast.decided) this.verdict.setFromFirewall();
    else this.path.process(rec, this.verdict);
    return this.verdict;
  }
}
