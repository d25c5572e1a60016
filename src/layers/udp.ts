// The UDP header (capture/decode/transport.ts decodes it): the ports.
import { port, raw } from './define.js';
import type { Layer } from './layer.js';

export const UDP_FIELDS = [port('udp', 'src', 49152, [40000]), port('udp', 'dst', 53, [53])] as const;

export const UDP_LAYER = { name: 'udp', fields: UDP_FIELDS, bytes: raw('udp', 'The UDP header and payload') } as const satisfies Layer;
