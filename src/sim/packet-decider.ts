// Deciding each packet of a capture read on a built path, with the firewall's fast path wherever it
// applies: the fast path's frame decoder goes to the read (it decides the frame from its bytes, or
// decodes it fully when it cannot), and decide() then takes the firewall's result it already wrote,
// or runs the packet path on the decoded record. Replay, match, diff and bench decide packets this
// one way, so their results cannot drift apart; the fast path's results equal the packet path's
// (test/fastpath). Deciders for two paths over one read (diff) share one frame decoder (shared()).
// With protection on, the fast path also reads ATP's fields from the bytes (fastpath/
// protection-decoding.ts) and the packet path runs ATP before taking the firewall's result
// (PacketPath.processDecided; test/atp/fast-path-diff.test.ts compares it with the packet path).
import { decodeFrameAt } from '../capture/decode/link-up.js';
import type { FrameDecoder } from '../capture/frame-delivery.js';
import type { PacketRecord } from '../capture/record.js';
import { FastDecoding } from '../fastpath/fast-decoding.js';
import { FastFirewall } from '../fastpath/fast-firewall.js';
import { HEADER_SLOTS } from '../fastpath/generate.js';
import { ProtectionDecoding } from '../fastpath/protection-decoding.js';
import type { BuiltPath } from './build.js';
import type { PacketPath } from './packet-path.js';
import type { PacketVerdict } from './verdict.js';

/** A compiled fast path: the generated function, and the array it leaves ATP's header offsets in when protection is on. */
export interface FastPath {
  firewall: FastFirewall;
  atpHeaders: Int32Array | null;
}

/**
 * The fast path for a path's stages, compiled once (deciders over the same stages may share it, one
 * after another); null where it does not apply: protection scoped by data center or region reads an
 * enrichment the fast path does not make.
 */
/** why a path has no fast path (fastPathFor's null) */
const NO_FAST_PATH = 'protection scoped by data center or region';

export function fastPathFor(stages: Pick<BuiltPath, 'firewall' | 'atp' | 'lists' | 'enrichment'>): FastPath | null {
  const { lists, enrichment } = stages;
  if (!stages.atp.active) return { firewall: FastFirewall.compile(stages.firewall, { lists, enrichment }), atpHeaders: null };
  if (stages.atp.readsIngress) return null;
  const headers = new Int32Array(HEADER_SLOTS);
  return { firewall: FastFirewall.compile(stages.firewall, { lists, enrichment, headers }), atpHeaders: headers };
}

export class PacketDecider {
  /** the verdict decide() writes (one object, reused for every packet) */
  readonly verdict: PacketVerdict;
  /** the frame decoder to read the capture with */
  decodeFrame: FrameDecoder;
  private readonly fast: FastDecoding | null;
  /** the fast path when protection is off (a pass it decides is the packet's whole verdict), else null */
  private readonly fastAlone: FastDecoding | null;

  /**
   * `fast`: the fast path for the path's stages (fastPathFor), or null to decide every packet on the
   * packet path, for the reason `noFastPath` (what fallbackReason says for every frame)
   */
  constructor(private readonly path: PacketPath, fast: FastPath | null, private readonly noFastPath = NO_FAST_PATH) {
    this.verdict = path.newVerdict();
    this.fast = fast === null ? null
      : fast.atpHeaders === null ? new FastDecoding(fast.firewall, this.verdict.firewall)
        : new ProtectionDecoding(fast.firewall, fast.atpHeaders, this.verdict.firewall);
    this.decodeFrame = this.fast === null ? decodeFrameAt : this.fast.decodeFrame;
    this.fastAlone = path.protects ? null : this.fast;
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
    return new PacketDecider(built.path, fastPath ? fastPathFor(built) : null, fastPath ? NO_FAST_PATH : 'compiled path switched off');
  }

  /** Why the frame just read goes through the decoder and evaluator, or null when the compiled path decided it. */
  fallbackReason(): string | null {
    const f = this.fast;
    if (f === null) return this.noFastPath;
    return f.decided ? null : f.fallbackReason();
  }

  /** How many rules the compiled path read on the decoded record of the frame just read, deciding it (0 when none, or it did not decide it). */
  decodedRules(): number {
    return this.fast === null ? 0 : this.fast.decodedRules();
  }

  /** Why the i-th of them was: "rule <ref>: field … not compiled". */
  decodedReason(i: number): string {
    return this.fast!.decodedReason(i);
  }

  /**
   * Whether the fast path passed the frame just read, with protection off: the packet's verdict is a
   * plain pass, which a summary can count without decide() writing it (ReplaySummary.addPassed).
   */
  passedFast(): boolean {
    const f = this.fastAlone;
    return f !== null && f.decided && !f.result.drop;
  }

  /** Decides the packet just read into `rec` with this decider's decodeFrame. */
  decide(rec: PacketRecord): PacketVerdict {
    if (this.fast !== null && this.fast.decided) this.path.processDecided(rec, this.verdict);
    else this.path.process(rec, this.verdict);
    return this.verdict;
  }
}
