// ip.proto is a string field: the IANA keyword of the packet's transport protocol, lowercased
// ("tcp", "udp", "ipv6-icmp", "ospfigp"), from the registry "Assigned Internet Protocol Numbers".
// The names are built once as byte arrays and shared by every packet, so reading ip.proto allocates
// nothing.
//
// Where the registry gives no usable keyword the name is chosen here:
// - numbers without a keyword (61, 63, 68, 99, 114: "any host internal protocol" and the like),
//   the unassigned 148-252, the experimental 253-254 and the reserved 255 are named by their
//   decimal number ("253");
// - 84 has two keywords (TTP, IPTM): the name is "ttp", and protocolNumber also knows "iptm";
// - keywords with spaces are written as one token: 124 "ISIS over IPv4" is "isis", 135 "Mobility
//   Header" is "mobility-header";
// - 55 is "min-ipv4" (the registry's current keyword); its former keyword "mobile" is an alias.

const KEYWORDS: ReadonlyArray<readonly [number, string]> = [
  [0, 'hopopt'], [1, 'icmp'], [2, 'igmp'], [3, 'ggp'], [4, 'ipv4'], [5, 'st'], [6, 'tcp'], [7, 'cbt'],
  [8, 'egp'], [9, 'igp'], [10, 'bbn-rcc-mon'], [11, 'nvp-ii'], [12, 'pup'], [13, 'argus'], [14, 'emcon'],
  [15, 'xnet'], [16, 'chaos'], [17, 'udp'], [18, 'mux'], [19, 'dcn-meas'], [20, 'hmp'], [21, 'prm'],
  [22, 'xns-idp'], [23, 'trunk-1'], [24, 'trunk-2'], [25, 'leaf-1'], [26, 'leaf-2'], [27, 'rdp'],
  [28, 'irtp'], [29, 'iso-tp4'], [30, 'netblt'], [31, 'mfe-nsp'], [32, 'merit-inp'], [33, 'dccp'],
  [34, '3pc'], [35, 'idpr'], [36, 'xtp'], [37, 'ddp'], [38, 'idpr-cmtp'], [39, 'tp++'], [40, 'il'],
  [41, 'ipv6'], [42, 'sdrp'], [43, 'ipv6-route'], [44, 'ipv6-frag'], [45, 'idrp'], [46, 'rsvp'],
  [47, 'gre'], [48, 'dsr'], [49, 'bna'], [50, 'esp'], [51, 'ah'], [52, 'i-nlsp'], [53, 'swipe'],
  [54, 'narp'], [55, 'min-ipv4'], [56, 'tlsp'], [57, 'skip'], [58, 'ipv6-icmp'], [59, 'ipv6-nonxt'],
  [60, 'ipv6-opts'], [62, 'cftp'], [64, 'sat-expak'], [65, 'kryptolan'], [66, 'rvd'], [67, 'ippc'],
  [69, 'sat-mon'], [70, 'visa'], [71, 'ipcv'], [72, 'cpnx'], [73, 'cphb'], [74, 'wsn'], [75, 'pvp'],
  [76, 'br-sat-mon'], [77, 'sun-nd'], [78, 'wb-mon'], [79, 'wb-expak'], [80, 'iso-ip'], [81, 'vmtp'],
  [82, 'secure-vmtp'], [83, 'vines'], [84, 'ttp'], [85, 'nsfnet-igp'], [86, 'dgp'], [87, 'tcf'],
  [88, 'eigrp'], [89, 'ospfigp'], [90, 'sprite-rpc'], [91, 'larp'], [92, 'mtp'], [93, 'ax.25'],
  [94, 'ipip'], [95, 'micp'], [96, 'scc-sp'], [97, 'etherip'], [98, 'encap'], [100, 'gmtp'],
  [101, 'ifmp'], [102, 'pnni'], [103, 'pim'], [104, 'aris'], [105, 'scps'], [106, 'qnx'], [107, 'a/n'],
  [108, 'ipcomp'], [109, 'snp'], [110, 'compaq-peer'], [111, 'ipx-in-ip'], [112, 'vrrp'], [113, 'pgm'],
  [115, 'l2tp'], [116, 'ddx'], [117, 'iatp'], [118, 'stp'], [119, 'srp'], [120, 'uti'], [121, 'smp'],
  [122, 'sm'], [123, 'ptp'], [124, 'isis'], [125, 'fire'], [126, 'crtp'], [127, 'crudp'],
  [128, 'sscopmce'], [129, 'iplt'], [130, 'sps'], [131, 'pipe'], [132, 'sctp'], [133, 'fc'],
  [134, 'rsvp-e2e-ignore'], [135, 'mobility-header'], [136, 'udplite'], [137, 'mpls-in-ip'],
  [138, 'manet'], [139, 'hip'], [140, 'shim6'], [141, 'wesp'], [142, 'rohc'], [143, 'ethernet'],
  [144, 'aggfrag'], [145, 'nsh'], [146, 'homa'], [147, 'bit-emu'],
];

const ALIASES: ReadonlyArray<readonly [string, number]> = [['iptm', 84], ['mobile', 55]];

const encoder = new TextEncoder();
const names: Uint8Array[] = [];
const texts: string[] = [];
const numbers = new Map<string, number>();

for (let n = 0; n < 256; n++) texts.push(String(n));
for (const [n, keyword] of KEYWORDS) texts[n] = keyword;
for (let n = 0; n < 256; n++) {
  names.push(encoder.encode(texts[n]));
  numbers.set(texts[n]!, n);
}
for (const [alias, n] of ALIASES) numbers.set(alias, n);

/** The interned ip.proto name of protocol number n (0-255): the same Uint8Array on every call. */
export function protocolName(n: number): Uint8Array {
  return names[n & 0xff]!;
}

/** The ip.proto name of protocol number n as text. */
export function protocolText(n: number): string {
  return texts[n & 0xff]!;
}

/** The protocol number of an ip.proto name (case-insensitive; also the decimal number), or undefined. */
export function protocolNumber(name: string): number | undefined {
  return numbers.get(name.toLowerCase());
}

/** ICMP types that report an error and carry the start of the packet that caused it (RFC 792, RFC 4443). */
const ICMP_ERRORS: Readonly<Record<4 | 6, readonly number[]>> = { 4: [3, 4, 5, 11, 12], 6: [1, 2, 3, 4] };

/** The bytes after an ICMP header: for an error, the invoking packet's IP header and 8 bytes of its UDP header; else none. */
export function icmpBodyLength(family: 4 | 6, type: number): number {
  return ICMP_ERRORS[family].includes(type) ? (family === 4 ? 20 : 40) + 8 : 0;
}
