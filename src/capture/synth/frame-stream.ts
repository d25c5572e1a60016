// Turns a flow spec into a time-ordered stream of frames. Every part has a spawner that fires at
// its flows' start times (or, for floods, at each attack packet); each live flow fires at its next
// packet's time. One binary heap orders them all by time (ties by the order they were scheduled,
// so the output is the same on every run), and only live flows are in memory: a million-packet
// capture holds a few thousand flows at a time, and each finished flow object is reused.
import { FrameBuilder } from './frame-builder.js';
import { DnsLookup, Ping, QuicSession } from './flows/datagrams.js';
import { Flow } from './flows/flow.js';
import type { Emitter, Timed } from './flows/flow.js';
import { ackFlood, synFlood } from './flows/floods.js';
import { TcpSession } from './flows/tcp-session.js';
import { planParts } from './part.js';
import type { PartRun } from './part.js';
import { Payloads } from './payloads.js';
import { Rng } from './rng.js';
import type { FlowSpec, PartKind } from './spec.js';
import { BinaryHeap } from '../binary-heap.js';

type SinglePacket = (out: Emitter, part: PartRun, timeUs: number) => void;

/** How each kind of part makes its traffic: a flow class, or a single-packet writer. */
const MAKERS: Readonly<Record<PartKind, { flow?: new () => Flow; packet?: SinglePacket }>> = {
  handshake: { flow: TcpSession },
  dns: { flow: DnsLookup },
  udp: { flow: QuicSession },
  icmp: { flow: Ping },
  'syn-flood': { packet: synFlood },
  'ack-flood': { packet: ackFlood },
};

/** Where generated frames go. */
export interface FrameConsumer {
  /**
   * The next frame: its first `len` bytes of `data` (valid only during the call), `timeUs`
   * microseconds from the capture's start, made by `part`, in legit flow `flow` (0 = none).
   */
  frame(data: Uint8Array, len: number, timeUs: number, part: PartRun, flow: number): void;
}

class Spawner implements Timed {
  time = 0;
  order = 0;
  done = false;
  private next = 0;
  private readonly free: Flow[] = [];
  private readonly make: (typeof MAKERS)[PartKind];

  constructor(readonly part: PartRun) {
    this.make = MAKERS[part.spec.kind];
    this.done = part.count === 0;
    if (!this.done) this.time = part.spawnTime(0);
  }

  /** Fires at `time`: writes a flood packet, or returns the flow that starts now. */
  fire(out: Emitter, nextFlowId: () => number): Flow | null {
    const i = this.next++;
    let flow: Flow | null = null;
    if (this.make.packet) this.make.packet(out, this.part, this.time);
    else {
      flow = this.free.pop() ?? new this.make.flow!();
      flow.begin(this.part, this.time, this.part.exchanges[i]!, this.part.limit(i), nextFlowId());
    }
    if (this.next >= this.part.count) this.done = true;
    else this.time = this.part.spawnTime(this.next);
    return flow;
  }

  recycle(flow: Flow): void {
    this.free.push(flow);
  }
}

/** Flows and spawners by the time of their next packet; equal times come out in the order they were queued. */
class TimeHeap extends BinaryHeap<Timed> {
  private seq = 0;

  constructor() {
    super(before);
  }

  override push(item: Timed): void {
    item.order = this.seq++;
    super.push(item);
  }

  /** Re-positions the top after its time grew (it is re-queued behind equal times). */
  requeueTop(): void {
    this.items[0]!.order = this.seq++;
    this.siftTop();
  }
}

function before(a: Timed, b: Timed): boolean {
  return a.time < b.time || (a.time === b.time && a.order < b.order);
}

/** Summary of a generated capture. */
export interface GenerateSummary {
  packets: number;
  /** legit flows started (the labels' flow ids run from 1 to this) */
  flows: number;
  parts: Array<{ name: string; kind: PartKind; label: string; packets: number }>;
}

/**
 * Generates the capture of `spec` into `sink`, in time order. `onProgress(done, total)` is called
 * every 65,536 packets.
 */
export function generate(spec: FlowSpec, sink: FrameConsumer, onProgress?: (done: number, total: number) => void): GenerateSummary {
  const parts = planParts(spec);
  const total = parts.reduce((s, p) => s + p.packets, 0);
  const frame = new FrameBuilder();
  let packets = 0;
  let flows = 0;
  const out: Emitter = {
    frame,
    payloads: new Payloads(new Rng(spec.seed, 0)),
    startSec: spec.start,
    emit(len, timeUs, part, flow) {
      packets++;
      sink.frame(frame.buf, len, timeUs, part, flow);
      if (onProgress && (packets & 0xffff) === 0) onProgress(packets, total);
    },
  };
  const nextFlowId = (): number => ++flows;
  const heap = new TimeHeap();
  const spawners = parts.map((part) => new Spawner(part));
  for (const spawner of spawners) if (!spawner.done) heap.push(spawner);
  while (heap.size > 0) {
    const item = heap.top();
    if (item instanceof Spawner) {
      const flow = item.fire(out, nextFlowId);
      if (item.done) heap.pop();
      else heap.requeueTop();
      if (flow !== null) {
        if (flow.done) item.recycle(flow);
        else heap.push(flow);
      }
    } else {
      const flow = item as Flow;
      flow.fire(out);
      if (flow.done) {
        heap.pop();
        spawners[flow.part.index]!.recycle(flow);
      } else heap.requeueTop();
    }
  }
  onProgress?.(packets, total);
  return {
    packets,
    flows,
    parts: parts.map((p) => ({ name: p.spec.name, kind: p.spec.kind, label: p.spec.label, packets: p.packets })),
  };
}
