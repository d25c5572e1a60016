// Attack traffic: one packet at a time from spoofed sources that never answer. A SYN flood sends
// bare SYNs (no options, or just an MSS, as flood tools do) with random ports, sequence numbers,
// windows and TTLs; an ACK/RST flood sends ACKs and RSTs with random sequence and acknowledgement
// numbers that belong to no connection (out-of-state packets).
import { PROTO_TCP, putU16 } from '../frame-builder.js';
import type { FrameBuilder } from '../frame-builder.js';
import type { PartRun } from '../part.js';
import type { Emitter } from './flow.js';

const SYN = 0x02;
const RST = 0x04;
const ACK = 0x10;
const FLOOD_WINDOWS = [512, 1024, 8192, 14600, 29200, 64240, 65535];
const src6 = new Uint32Array(4);
const dst6 = new Uint32Array(4);

function spoofedHeader(fb: FrameBuilder, part: PartRun): void {
  const rng = part.rng;
  const ttl = rng.int(32, 250);
  if (part.family.v6(rng)) {
    part.sources.pick6(rng, src6);
    part.servers.pick6(rng, dst6);
    fb.ipv6(true, src6, dst6, PROTO_TCP, ttl, rng.u32() & 0xfffff);
  } else {
    fb.ipv4(true, part.sources.pick4(rng), part.servers.pick4(rng), PROTO_TCP, ttl, rng.u32() & 0xffff);
  }
}

function destinationPort(part: PartRun): number {
  const ports = part.spec.ports;
  return ports.length === 1 ? ports[0]! : ports[part.rng.below(ports.length)]!;
}

/** One spoofed SYN. */
export function synFlood(out: Emitter, part: PartRun, timeUs: number): void {
  const fb = out.frame;
  const rng = part.rng;
  spoofedHeader(fb, part);
  const mss = rng.chance(0.5);
  const o = fb.tcp(rng.int(1024, 65535), destinationPort(part), rng.u32(), 0, SYN, FLOOD_WINDOWS[rng.below(FLOOD_WINDOWS.length)]!, mss ? 4 : 0);
  if (mss) {
    fb.buf[o] = 2;
    fb.buf[o + 1] = 4;
    putU16(fb.buf, o + 2, 1460);
  }
  out.emit(fb.finish(o + (mss ? 4 : 0)), timeUs, part, 0);
}

/** One out-of-state ACK, or (with probability rst) an RST or RST-ACK. */
export function ackFlood(out: Emitter, part: PartRun, timeUs: number): void {
  const fb = out.frame;
  const rng = part.rng;
  spoofedHeader(fb, part);
  const rst = rng.chance(part.spec.rst);
  const flags = rst ? (rng.chance(0.5) ? RST : RST | ACK) : ACK;
  const o = fb.tcp(rng.int(1024, 65535), destinationPort(part), rng.u32(), flags === RST ? 0 : rng.u32(), flags, rst ? 0 : rng.int(0, 65535), 0);
  out.emit(fb.finish(o), timeUs, part, 0);
}
