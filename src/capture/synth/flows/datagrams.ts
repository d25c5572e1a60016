// Request/response flows without connection state: DNS lookups (a query from an ephemeral port,
// the resolver's answer a little later), QUIC-like sessions on UDP (short-header datagrams both
// ways), and pings (ICMP or ICMPv6 echo request and reply, one a second, as ping sends them).
// Each exchange is two packets: the client's (inbound, to the server) and the server's answer.
import { PROTO_ICMP, PROTO_ICMPV6, PROTO_UDP } from '../frame-builder.js';
import type { Rng } from '../rng.js';
import { Flow } from './flow.js';
import type { Emitter } from './flow.js';

export class DnsLookup extends Flow {
  private answerDelay = 0;
  private think = 0;
  private queryId = 0;
  private name = 0;
  private aaaa = false;

  protected setup(rng: Rng): void {
    this.answerDelay = Math.round(rng.logUniform(300, 40_000));
    this.think = Math.round(rng.logUniform(1_000, 100_000));
  }

  protected naturalLength(): number {
    return this.exchanges * this.answerDelay + (this.exchanges - 1) * this.think;
  }

  fire(out: Emitter): void {
    const fb = out.frame;
    const rng = this.part.rng;
    const query = (this.step & 1) === 0;
    if (query) {
      this.queryId = rng.u32() & 0xffff;
      this.name = rng.below(64);
      this.aaaa = rng.chance(this.v6 ? 0.6 : 0.25);
    }
    this.ip(fb, query, PROTO_UDP);
    const p = fb.udp(query ? this.clientPort : this.serverPort, query ? this.serverPort : this.clientPort);
    const end = query ? out.payloads.dnsQuery(fb.buf, p, this.queryId, this.name, this.aaaa) : out.payloads.dnsAnswer(fb.buf, p, this.queryId, this.name, this.aaaa, rng);
    out.emit(fb.finish(end), this.time, this.part, this.id);
    this.advance(query ? this.answerDelay : this.think);
  }
}

export class QuicSession extends Flow {
  private rtt = 0;
  private think = 0;
  private serverCidHi = 0;
  private serverCidLo = 0;
  private clientCidHi = 0;
  private clientCidLo = 0;

  protected setup(rng: Rng): void {
    this.rtt = Math.round(rng.logUniform(5_000, 150_000));
    this.think = Math.round(rng.logUniform(1_000, 200_000));
    this.serverCidHi = rng.u32();
    this.serverCidLo = rng.u32();
    this.clientCidHi = rng.u32();
    this.clientCidLo = rng.u32();
  }

  protected naturalLength(): number {
    return this.exchanges * (this.rtt + this.think);
  }

  fire(out: Emitter): void {
    const fb = out.frame;
    const rng = this.part.rng;
    const fromClient = (this.step & 1) === 0;
    this.ip(fb, fromClient, PROTO_UDP);
    const p = fb.udp(fromClient ? this.clientPort : this.serverPort, fromClient ? this.serverPort : this.clientPort);
    const end = fromClient
      ? out.payloads.quic(fb.buf, p, this.serverCidHi, this.serverCidLo, rng.int(40, 400), rng)
      : out.payloads.quic(fb.buf, p, this.clientCidHi, this.clientCidLo, rng.int(200, 1350), rng);
    out.emit(fb.finish(end), this.time, this.part, this.id);
    this.advance(fromClient ? this.rtt / 8 : this.think);
  }
}

export class Ping extends Flow {
  private echoId = 0;
  private replyDelay = 0;
  private sentSec = 0;
  private sentUsec = 0;

  protected setup(rng: Rng): void {
    this.echoId = rng.u32() & 0xffff;
    this.replyDelay = rng.int(30, 400);
  }

  protected naturalLength(): number {
    return (this.exchanges - 1) * 1_000_000 + this.replyDelay;
  }

  fire(out: Emitter): void {
    const fb = out.frame;
    const request = (this.step & 1) === 0;
    if (request) {
      const t = out.startSec * 1e6 + this.time;
      this.sentSec = Math.floor(t / 1e6);
      this.sentUsec = t % 1e6;
    }
    this.ip(fb, request, this.v6 ? PROTO_ICMPV6 : PROTO_ICMP);
    const type = this.v6 ? (request ? 128 : 129) : request ? 8 : 0;
    const p = fb.echo(type, this.echoId, (this.step >> 1) + 1);
    const end = out.payloads.ping(fb.buf, p, this.sentSec, this.sentUsec);
    out.emit(fb.finish(end), this.time, this.part, this.id);
    this.advance(request ? this.replyDelay : 1_000_000 - this.replyDelay);
  }
}
