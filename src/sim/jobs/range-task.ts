// What the thread replaying a range of a capture is given, and what it sends back (plain data, copied
// between threads).
import type { PcapHeader } from '../../capture/pcap.js';
import type { CaptureInfo } from '../../capture/reader.js';
import type { AddressLogOptions } from '../address-log.js';
import type { PathSetup } from '../compiled-path.js';
import type { TallyParts } from '../run.js';
import type { SummaryParts } from '../summary.js';

export interface RangeTask {
  setup: PathSetup;
  /** the capture file (a classic pcap file) */
  path: string;
  header: PcapHeader;
  /** the range: the records that start in [from, to) of the file (`from` need not be a record start) */
  from: number;
  to: number;
  /** the capture's first packet's time (sec, nsec): where every part's time buckets start */
  start: [number, number];
  fastPath: boolean;
  /** where the range's drops' addresses are kept (memory, then a file: address-log.ts) */
  addresses: AddressLogOptions;
  /** a Float64Array per thread: bytes of its range read so far (progress) */
  progress: SharedArrayBuffer;
  slot: number;
}

export type RangeOutcome =
  | {
      kind: 'done';
      /** where the first record of the range was taken to start */
      from: number;
      info: CaptureInfo;
      parts: SummaryParts;
      tally: TallyParts;
    }
  /** no record seemed to start in the bytes looked at */
  | { kind: 'no-start' }
  | { kind: 'failed'; message: string };
