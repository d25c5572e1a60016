// The UDP header (capture/decode/transport.ts decodes it): the ports.
import { fieldList, layer, port, raw } from './define.js';

export const UDP_FIELDS = fieldList(port('udp', 'src', 49152, [40000]), port('udp', 'dst', 53, [53]));

export const UDP_LAYER = layer({ name: 'udp', fields: UDP_FIELDS, bytes: raw('udp', 'The UDP header and payload') });
