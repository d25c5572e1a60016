// The example schemes of reference/wirefilter.md, as our tests define them: S (the [run] vectors,
// §5b/§5c), the unit-test scheme of §5a, and the logical-expression test scheme.
import { ArrayOf, concat, MapOf, Scheme } from '../../src/lang/index.js';

export const S = new Scheme({
  fields: {
    'ip.src': 'Ip', 'ip.dst': 'Ip',
    'tcp.dstport': 'Int', 'tcp.srcport': 'Int', 'udp.dstport': 'Int',
    'http.host': 'Bytes', ssl: 'Bool', nothing: 'Bool', order: 'Bool', 'tcp.flags.syn': 'Bool',
    'http.cookies': ArrayOf('Bytes'), 'http.headers': MapOf('Bytes'), flags: ArrayOf('Bool'), ports: ArrayOf('Int'),
  },
  functions: [concat],
  lists: ['Ip'],
});

export const UNIT = new Scheme({
  fields: {
    num: 'Int', bool: 'Bool', str: 'Bytes', ip: 'Ip', str_arr: ArrayOf('Bytes'), str_map: MapOf('Bytes'), arr: ArrayOf('Bool'),
    'tcp.port': 'Int', 'ip.addr': 'Ip', 'http.host': 'Bytes', test: MapOf('Bytes'),
  },
  functions: [concat],
});

export const LOGICAL = new Scheme({
  fields: { t: 'Bool', f: 'Bool', at: ArrayOf('Bool'), af: ArrayOf('Bool'), aat: ArrayOf(ArrayOf('Bool')) },
});
