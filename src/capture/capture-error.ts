import { UserError } from '../errors.js';

/**
 * A capture file that cannot be read at all: missing, unreadable, not a pcap/pcapng file, or with a
 * broken file header. The message is one line naming the file and what is wrong. Problems after a
 * good start (a truncated last record, a corrupt block) are warnings in CaptureInfo instead.
 */
export class CaptureError extends UserError {
  override name = 'CaptureError';
}
