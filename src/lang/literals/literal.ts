// A literal value as the parser lexed it: the right-hand side of a comparison, or a constant
// argument of a function call (where function definitions inspect it).
import type { IpValue } from './ip.js';

export type Literal =
  | { readonly type: 'Int'; readonly value: bigint }
  | { readonly type: 'Ip'; readonly ip: IpValue }
  | { readonly type: 'Bytes'; readonly bytes: Uint8Array };
