// One captured frame as a capture's reader yields it: where its bytes are, how long it was on the
// wire, when it was captured and its number. The reader fills ONE Frame for every record (its `data`
// points into the read buffer, valid until the next frame), so reading allocates nothing. What the
// frame's bytes say is decided elsewhere, in one place (sim/decide-frame.ts).

const EMPTY = new Uint8Array(0);

export class Frame {
  /** 1-based frame number, as Wireshark numbers frames (in its own file, when several captures are merged) */
  number = 0;
  /** which of several merged captures the frame came from, by its place in the list (0 for a single capture) */
  file = 0;
  /** capture timestamp: whole seconds since the epoch, and nanoseconds within the second */
  tsSec = 0;
  tsNsec = 0;
  /** link type of the interface the frame came from (pcap LINKTYPE_* number) */
  linkType = 0;
  /** the buffer holding the frame: its captured bytes are data[off, off + capLen) */
  data: Uint8Array = EMPTY;
  off = 0;
  /** captured length (never past the end of `data`) */
  capLen = 0;
  /** length on the wire */
  origLen = 0;

  /** Points the frame at data[off, off + capLen) (cut at the end of `data`), of link type `linkType`, origLen bytes on the wire. */
  set(linkType: number, data: Uint8Array, off: number, capLen: number, origLen: number): void {
    this.linkType = linkType;
    this.data = data;
    this.off = off;
    this.capLen = Math.max(0, Math.min(capLen, data.length - off));
    this.origLen = origLen;
  }
}
