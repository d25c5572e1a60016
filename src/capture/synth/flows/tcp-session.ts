// A legitimate TCP session as a capture point in front of the server sees it:
//   SYN (MSS, SACK permitted, window scale, and timestamps for Linux-like clients)
//   SYN-ACK, ACK, then per exchange a request (PSH-ACK) and a response (PSH-ACK),
//   then FIN-ACK from the client, FIN-ACK from the server, and the client's last ACK.
// Sequence and acknowledgement numbers, timestamp options and windows stay consistent, so tshark's
// TCP analysis follows the stream; the server answers within a fraction of a millisecond (it is
// near the capture point), the client one round trip later.
import { PROTO_TCP, putU16, putU32 } from '../frame-builder.js';
import type { FrameBuilder } from '../frame-builder.js';
import { App, appForPort } from '../payloads.js';
import type { Rng } from '../rng.js';
import { Flow } from './flow.js';
import type { Emitter } from './flow.js';

const FIN = 0x01;
const SYN = 0x02;
const PSH = 0x08;
const ACK = 0x10;

export class TcpSession extends Flow {
  private app: App = App.Text;
  private linux = false;
  private mss = 0;
  private isnClient = 0;
  private isnServer = 0;
  private seqClient = 0;
  private seqServer = 0;
  private tsClient = 0;
  private tsServer = 0;
  private t0 = 0;
  private rtt = 0;
  private serverDelay = 0;
  private lead = 0;
  private responseTime = 0;
  private think = 0;
  private windowClient = 0;
  private windowServer = 0;

  protected setup(rng: Rng): void {
    this.app = appForPort(this.serverPort);
    this.linux = rng.chance(0.65);
    this.mss = this.v6 ? 1440 : 1460;
    this.isnClient = rng.u32();
    this.isnServer = rng.u32();
    this.seqClient = this.isnClient;
    this.seqServer = this.isnServer;
    this.tsClient = rng.u32();
    this.tsServer = rng.u32();
    this.t0 = this.time;
    this.rtt = Math.round(rng.logUniform(5_000, 200_000));
    this.serverDelay = rng.int(40, 400);
    this.lead = rng.int(50, 2_000);
    this.responseTime = Math.round(rng.logUniform(200, 30_000));
    this.think = Math.round(rng.logUniform(1_000, 300_000));
    this.windowClient = this.linux ? rng.int(490, 510) : rng.int(1020, 1030);
    this.windowServer = rng.int(500, 510);
  }

  protected naturalLength(): number {
    const n = this.exchanges;
    return 2 * this.serverDelay + 2 * this.rtt + this.lead + n * (this.responseTime + this.rtt + this.think);
  }

  fire(out: Emitter): void {
    const fb = out.frame;
    const rng = this.part.rng;
    const s = this.step;
    const data = s - 3;
    let end: number;
    let gap: number;
    if (s === 0) {
      end = this.segment(fb, true, SYN, this.isnClient, 0, this.v6 ? 64800 : 64240);
      this.seqClient = (this.isnClient + 1) >>> 0;
      gap = this.serverDelay;
    } else if (s === 1) {
      end = this.segment(fb, false, SYN | ACK, this.isnServer, this.seqClient, this.v6 ? 64800 : 65160);
      this.seqServer = (this.isnServer + 1) >>> 0;
      gap = this.rtt;
    } else if (s === 2) {
      end = this.segment(fb, true, ACK, this.seqClient, this.seqServer, this.windowClient);
      gap = this.lead;
    } else if (data < 2 * this.exchanges) {
      const i = data >> 1;
      if ((data & 1) === 0) {
        const p = this.segment(fb, true, PSH | ACK, this.seqClient, this.seqServer, this.windowClient);
        end = out.payloads.request(this.app, i, fb.buf, p, rng);
        this.seqClient = (this.seqClient + end - p) >>> 0;
        gap = this.responseTime;
      } else {
        const p = this.segment(fb, false, PSH | ACK, this.seqServer, this.seqClient, this.windowServer);
        end = out.payloads.response(this.app, i, fb.buf, p, this.mss - (this.linux ? 12 : 0), rng);
        this.seqServer = (this.seqServer + end - p) >>> 0;
        gap = this.rtt + this.think;
      }
    } else if (data === 2 * this.exchanges) {
      end = this.segment(fb, true, FIN | ACK, this.seqClient, this.seqServer, this.windowClient);
      this.seqClient = (this.seqClient + 1) >>> 0;
      gap = this.serverDelay;
    } else if (data === 2 * this.exchanges + 1) {
      end = this.segment(fb, false, FIN | ACK, this.seqServer, this.seqClient, this.windowServer);
      this.seqServer = (this.seqServer + 1) >>> 0;
      gap = this.rtt;
    } else {
      end = this.segment(fb, true, ACK, this.seqClient, this.seqServer, this.windowClient);
      gap = 0;
    }
    out.emit(fb.finish(end), this.time, this.part, this.id);
    this.advance(gap);
  }

  /** IP + TCP header with the options this packet carries; returns where the payload starts. */
  private segment(fb: FrameBuilder, inbound: boolean, flags: number, seq: number, ack: number, window: number): number {
    this.ip(fb, inbound, PROTO_TCP);
    const syn = (flags & SYN) !== 0;
    const optionBytes = syn ? (this.linux ? 20 : 12) : this.linux ? 12 : 0;
    const o = fb.tcp(inbound ? this.clientPort : this.serverPort, inbound ? this.serverPort : this.clientPort, seq, ack, flags, window, optionBytes);
    const b = fb.buf;
    const ms = Math.floor((this.time - this.t0) / 1000);
    const tsMine = ((inbound ? this.tsClient : this.tsServer) + ms) >>> 0;
    const tsEcho = flags === SYN ? 0 : ((inbound ? this.tsServer : this.tsClient) + ms) >>> 0;
    if (syn && this.linux) {
      // MSS, SACK permitted, timestamps, NOP, window scale 7 (Linux's order)
      b[o] = 2;
      b[o + 1] = 4;
      putU16(b, o + 2, this.mss);
      b[o + 4] = 4;
      b[o + 5] = 2;
      b[o + 6] = 8;
      b[o + 7] = 10;
      putU32(b, o + 8, tsMine);
      putU32(b, o + 12, tsEcho);
      b[o + 16] = 1;
      b[o + 17] = 3;
      b[o + 18] = 3;
      b[o + 19] = 7;
    } else if (syn) {
      // MSS, NOP, window scale, NOP, NOP, SACK permitted (Windows' order)
      b[o] = 2;
      b[o + 1] = 4;
      putU16(b, o + 2, this.mss);
      b[o + 4] = 1;
      b[o + 5] = 3;
      b[o + 6] = 3;
      b[o + 7] = inbound ? 8 : 7;
      b[o + 8] = 1;
      b[o + 9] = 1;
      b[o + 10] = 4;
      b[o + 11] = 2;
    } else if (this.linux) {
      b[o] = 1;
      b[o + 1] = 1;
      b[o + 2] = 8;
      b[o + 3] = 10;
      putU32(b, o + 4, tsMine);
      putU32(b, o + 8, tsEcho);
    }
    return o + optionBytes;
  }
}
