// The reused record keeps one hidden class (V8 map) for a whole read. Its 32-bit fields (addresses,
// sequence numbers, AS numbers) hold numbers above V8's small-integer range as well as 0; a field
// that had held only small integers when the first such number came changed the record's hidden
// class there, mid-replay (often at the first dropped packet, whose addresses the fast path reads),
// and every function optimized for the record was thrown away and compiled again.
import { setFlagsFromString } from 'node:v8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFrame } from '../../src/capture/reader.js';
import { PacketRecord } from '../../src/capture/record.js';
import { bytes, ethernet, ipv4 } from './helpers/build.js';

setFlagsFromString('--allow-natives-syntax');
const sameHiddenClass = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** the record's fields that hold any unsigned 32-bit number */
const UINT32_FIELDS = ['src4', 'dst4', 'tcpSeq', 'tcpAck', 'srcAsn', 'dstAsn'] as const;

const ETHERTYPE_IPV4 = 0x0800;

function tcpSegment(seq: number, ack: number): Uint8Array {
  const u32 = (v: number) => [v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
  return bytes([0x30, 0x39, 0x00, 0x50], u32(seq), u32(ack), [0x50, 0x10, 0xff, 0xff, 0, 0, 0, 0]);
}

function decoded(src: string, dst: string, seq: number, ack: number): PacketRecord {
  const frame = ethernet(ETHERTYPE_IPV4, ipv4({ src, dst, proto: 6 }, tcpSegment(seq, ack)));
  const rec = new PacketRecord();
  decodeFrame(rec, 1, frame, frame.length);
  return rec;
}

describe('PacketRecord hidden class', () => {
  it('is the same after decoding a packet of large addresses and sequence numbers as after one of small ones', () => {
    const small = decoded('10.0.0.1', '10.0.0.2', 1, 2);
    const large = decoded('203.0.113.10', '198.51.100.2', 0xfffffff0, 0x80000000);
    expect(large.src4).toBe(0xcb00710a);
    expect(large.tcpSeq).toBe(0xfffffff0);
    expect(sameHiddenClass(small, large)).toBe(true);
  });

  it('does not change whatever 32-bit number a 32-bit field is given', () => {
    fc.assert(
      fc.property(fc.constantFrom(...UINT32_FIELDS), fc.nat({ max: 0xffffffff }), (field, value) => {
        const fresh = new PacketRecord();
        const given = new PacketRecord();
        given[field] = value;
        return sameHiddenClass(fresh, given);
      }),
    );
  });

  it('reads 0 in every 32-bit field of a new record, as reset() leaves them', () => {
    const rec = new PacketRecord();
    for (const field of UINT32_FIELDS) expect(Object.is(rec[field], 0)).toBe(true);
  });
});
