// What every synthetic flow shares: its two endpoints (family, addresses, ports, TTLs, IP ID
// counters), its place in time, and the step counter that says which of its packets comes next.
// A flow object is reused for many flows of its part (see Generator), so begin() sets every field.
//
// Time runs in microseconds from the capture's start. A flow knows its natural length (round
// trips, server delays, think times); one that would run past its part's end is squeezed to fit.
import type { FrameBuilder } from '../frame-builder.js';
import type { PartRun } from '../part.js';
import type { Payloads } from '../payloads.js';
import type { Rng } from '../rng.js';

/** What a flow needs from the generator to put a packet in the capture. */
export interface Emitter {
  readonly frame: FrameBuilder;
  readonly payloads: Payloads;
  /** the capture's first second (for payloads that carry the time, like ping) */
  readonly startSec: number;
  /** Adds the frame built in `frame` (its first `len` bytes) to the capture. */
  emit(len: number, timeUs: number, part: PartRun, flow: number): void;
}

/** Something that fires at `time`: a flow, or a part's spawner of flows. */
export interface Timed {
  time: number;
  order: number;
  done: boolean;
}

export abstract class Flow implements Timed {
  time = 0;
  order = 0;
  done = false;
  part!: PartRun;
  /** flow id for the labels (1-based) */
  id = 0;
  step = 0;
  limit = 0;
  exchanges = 0;
  private scale = 1;

  v6 = false;
  client4 = 0;
  server4 = 0;
  readonly client6 = new Uint32Array(4);
  readonly server6 = new Uint32Array(4);
  flowLabel = 0;
  clientPort = 0;
  serverPort = 0;
  clientTtl = 0;
  serverTtl = 0;
  private clientId = 0;
  private serverId = 0;

  /** Starts flow `id` of `part` at `timeUs` with `exchanges` exchanges, cut to `limit` packets. */
  begin(part: PartRun, timeUs: number, exchanges: number, limit: number, id: number): void {
    const rng = part.rng;
    this.part = part;
    this.time = timeUs;
    this.exchanges = exchanges;
    this.limit = limit;
    this.id = id;
    this.step = 0;
    this.done = limit === 0;
    this.v6 = part.family.v6(rng);
    if (this.v6) {
      part.sources.pick6(rng, this.client6);
      part.servers.pick6(rng, this.server6);
      this.flowLabel = rng.u32() & 0xfffff;
    } else {
      this.client4 = part.sources.pick4(rng);
      this.server4 = part.servers.pick4(rng);
    }
    const ports = part.spec.ports;
    this.serverPort = ports.length === 0 ? 0 : ports.length === 1 ? ports[0]! : ports[rng.below(ports.length)]!;
    this.clientPort = rng.int(32768, 60999);
    this.clientTtl = (rng.chance(0.7) ? 64 : 128) - rng.int(6, 24);
    this.serverTtl = 64;
    this.clientId = rng.u32() & 0xffff;
    this.serverId = rng.u32() & 0xffff;
    this.setup(rng);
    const natural = this.naturalLength();
    const room = part.endUs - timeUs;
    this.scale = natural > room ? room / natural : 1;
  }

  /** Draws what this kind of flow needs (delays, sequence numbers...). */
  protected abstract setup(rng: Rng): void;
  /** Microseconds from the first packet to the last, unsqueezed. */
  protected abstract naturalLength(): number;
  /** Builds and emits the packet of the current step, then calls advance(). */
  abstract fire(out: Emitter): void;

  /** Moves to the next step, `gapUs` (squeezed) later, or ends the flow. */
  protected advance(gapUs: number): void {
    this.step++;
    if (this.step >= this.limit) {
      this.done = true;
      return;
    }
    const t = this.time + Math.round(gapUs * this.scale);
    this.time = t < this.part.endUs ? t : this.part.endUs;
  }

  /** Writes Ethernet + IP for a packet to the server (`inbound`) or back; returns the transport offset. */
  protected ip(fb: FrameBuilder, inbound: boolean, proto: number): number {
    if (this.v6) {
      return inbound
        ? fb.ipv6(true, this.client6, this.server6, proto, this.clientTtl, this.flowLabel)
        : fb.ipv6(false, this.server6, this.client6, proto, this.serverTtl, this.flowLabel);
    }
    if (inbound) {
      this.clientId = (this.clientId + 1) & 0xffff;
      return fb.ipv4(true, this.client4, this.server4, proto, this.clientTtl, this.clientId);
    }
    this.serverId = (this.serverId + 1) & 0xffff;
    return fb.ipv4(false, this.server4, this.client4, proto, this.serverTtl, this.serverId);
  }
}
