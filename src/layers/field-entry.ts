// What the registry says of every field (src/field-registry.ts re-exports these types): the kind of
// value it holds (and so its type), its unit and meaning for users, the part of the packet it is read
// from (absent when the packet lacks that part; a transport, or a lookup rather than the capture), its
// largest value, its bit in tcp.flags, the fast path's local for its value and the analysis' dimension
// of the header space (src/analysis/space.ts Dim). Imports nothing.

export type Transport = 'tcp' | 'udp' | 'icmp';
export type Lookup = 'country' | 'asn' | 'colo';
/** 'ipv4': the IPv4 header only; 'ipv4-options': its options */
export type FieldPart = 'ip' | 'ipv4' | 'ipv4-options' | Transport | Lookup;

interface Common {
  readonly name: string;
  /** what a value counts or names */
  readonly unit: string;
  readonly meaning: string;
  readonly part: FieldPart;
  /** ATP filter expressions may name it too */
  readonly inFilters?: true;
}

export type FieldEntry = Common &
  (
    | { readonly kind: 'address'; /** the fast path's local of the IPv4 value */ readonly local: 's4' | 'd4'; readonly dim: string }
    | { readonly kind: 'int'; readonly max: number; /** the fast path's local, absent for a looked-up field */ readonly local?: string; readonly dim?: string }
    /** a bit of tcp.flags */
    | { readonly kind: 'flag'; readonly bit: number }
    | { readonly kind: 'bool'; readonly dim: string }
    /**
     * bytes that name something (a protocol, a country, a data center), shown as text; a field that
     * stands for any of several others (ip.geoip.country) has their dimensions
     */
    | { readonly kind: 'name'; readonly dim: string; readonly anyOf?: undefined }
    | { readonly kind: 'name'; readonly anyOf: readonly string[] }
    /** the packet's bytes from a layer on, as captured */
    | { readonly kind: 'raw' }
  );

export type FieldKind = FieldEntry['kind'];
