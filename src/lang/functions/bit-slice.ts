// bit_slice(protocol, start, end) -> Int (reference/cloudflare.md §2.4): bits [start, end) of the
// raw header bytes of `protocol` (one of the raw-bytes fields: a Field, not a literal), read
// big-endian from the start of that header as an unsigned integer. start and end are Int literals,
// end - start in 1..32, end <= 2040. Outside the captured bytes the value is absent.
// Compiled, it reads at most five bytes straight from the field's view and allocates nothing.
import type { BytesAccess, FieldAccess, IntAccess } from '../binding.js';
import type { FunctionDef, FunctionParam, ParamProblem } from '../scheme.js';

export const BIT_SLICE_PROTOCOLS: readonly string[] = ['ip', 'tcp', 'udp', 'icmp'];
export const BIT_SLICE_MAX_END = 2040;
export const BIT_SLICE_MAX_WIDTH = 32;

function literalInt(p: FunctionParam): number {
  return p.literal?.type === 'Int' ? Number(p.literal.value) : NaN;
}

/**
 * Bits [from, to) (to - from <= 32) of the view bytes[start, end), big-endian, as an unsigned
 * integer; -1 when they run past the captured bytes. At most five bytes are combined, within a
 * double's exact range.
 */
export function readBits(bytes: Uint8Array, start: number, end: number, from: number, to: number): number {
  const lastByte = (to - 1) >> 3;
  if (start + lastByte >= end) return -1;
  let acc = 0;
  for (let i = from >> 3; i <= lastByte; i++) acc = acc * 256 + bytes[start + i];
  const drop = (8 - (to & 7)) & 7;
  return Math.floor(acc / 2 ** drop) % 2 ** (to - from);
}

export const bitSlice: FunctionDef = {
  name: 'bit_slice',
  signature: 'bit_slice(protocol: ip | tcp | udp | icmp, start: Int, end: Int) -> Int',
  summary: `Bits [start, end) of the raw header of protocol, read big-endian from that header's first byte as an unsigned integer: start and end are Int literals, end - start from 1 to ${BIT_SLICE_MAX_WIDTH}, end at most ${BIT_SLICE_MAX_END}. Absent where the bits lie past the captured bytes.`,
  minArgs: 3,
  maxArgs: 3,
  checkParam(index, param, previous): ParamProblem | null {
    if (index === 0) {
      if (param.kind !== 'Field') return { kind: 'kind', expected: 'Field' };
      if (param.type !== 'Bytes') return { kind: 'type', expected: 'Bytes' };
      if (!param.field || !BIT_SLICE_PROTOCOLS.includes(param.field)) {
        return { kind: 'value', message: `protocol must be one of the fields ${BIT_SLICE_PROTOCOLS.join(', ')}` };
      }
      return null;
    }
    if (param.kind !== 'Literal') return { kind: 'kind', expected: 'Literal' };
    if (param.type !== 'Int') return { kind: 'type', expected: 'Int' };
    const v = literalInt(param);
    if (index === 1) {
      return v >= 0 && v < BIT_SLICE_MAX_END ? null : { kind: 'value', message: `start must be between 0 and ${BIT_SLICE_MAX_END - 1}` };
    }
    if (v > BIT_SLICE_MAX_END) return { kind: 'value', message: `end must be at most ${BIT_SLICE_MAX_END}` };
    const width = v - literalInt(previous[1]);
    if (!(width >= 1 && width <= BIT_SLICE_MAX_WIDTH)) {
      return { kind: 'value', message: `end - start must be between 1 and ${BIT_SLICE_MAX_WIDTH} bits` };
    }
    return null;
  },
  returnType: () => 'Int',
  evaluate(args) {
    const [bytes, from, to] = args as [Uint8Array | undefined, number, number];
    if (!bytes || Math.ceil(to / 8) > bytes.length) return undefined;
    let value = 0;
    for (let bit = from; bit < to; bit++) value = value * 2 + ((bytes[bit >> 3] >> (7 - (bit & 7))) & 1);
    return value;
  },
  compile<P>(params: readonly FunctionParam[], field: (name: string) => FieldAccess<P>): IntAccess<P> {
    const bytes = field(params[0].field!) as BytesAccess<P>;
    const from = literalInt(params[1]);
    const to = literalInt(params[2]);
    const get = (p: P) => (bytes.has(p) ? readBits(bytes.bytes(p), bytes.start(p), bytes.end(p), from, to) : -1);
    return { type: 'Int', has: (p) => get(p) >= 0, get };
  },
};
