// PacketRecord carries countries, data-center names and regions as byte arrays that every packet
// shares, so setting them allocates nothing and the Rules language compares bytes. One table here
// hands out those arrays, so that "DE" from the GeoIP database and "DE" from anywhere else are the
// same array.

const table = new Map<string, Uint8Array>();

/** The one shared ASCII byte array for `text` (callers must not modify it). */
export function interned(text: string): Uint8Array {
  let bytes = table.get(text);
  if (bytes === undefined) {
    bytes = Uint8Array.from(text, (c) => c.charCodeAt(0) & 0x7f);
    table.set(text, bytes);
  }
  return bytes;
}
