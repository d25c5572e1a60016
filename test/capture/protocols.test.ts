// ip.proto names: the IANA keywords, lowercased, interned, and invertible.
import { describe, expect, it } from 'vitest';
import { protocolName, protocolNumber, protocolText } from '../../src/capture/protocols.js';

const text = (b: Uint8Array): string => new TextDecoder().decode(b);

describe('protocol names', () => {
  it.each([
    [0, 'hopopt'], [1, 'icmp'], [2, 'igmp'], [4, 'ipv4'], [6, 'tcp'], [17, 'udp'], [41, 'ipv6'], [43, 'ipv6-route'],
    [44, 'ipv6-frag'], [47, 'gre'], [50, 'esp'], [51, 'ah'], [58, 'ipv6-icmp'], [59, 'ipv6-nonxt'], [60, 'ipv6-opts'],
    [84, 'ttp'], [88, 'eigrp'], [89, 'ospfigp'], [103, 'pim'], [112, 'vrrp'], [115, 'l2tp'], [124, 'isis'], [132, 'sctp'],
    [135, 'mobility-header'], [136, 'udplite'], [137, 'mpls-in-ip'], [143, 'ethernet'], [147, 'bit-emu'],
  ])('%i is "%s"', (n, name) => {
    expect(text(protocolName(n))).toBe(name);
    expect(protocolText(n)).toBe(name);
    expect(protocolNumber(name)).toBe(n);
  });

  it('names numbers without a keyword by their decimal number', () => {
    for (const n of [61, 63, 68, 99, 114, 148, 200, 252, 253, 254, 255]) expect(protocolText(n)).toBe(String(n));
  });

  it('returns the same interned array on every call', () => {
    expect(protocolName(6)).toBe(protocolName(6));
    expect(protocolName(6 + 256)).toBe(protocolName(6));
  });

  it('gives every number a distinct name that maps back to it', () => {
    const names = new Set<string>();
    for (let n = 0; n < 256; n++) {
      names.add(protocolText(n));
      expect(protocolNumber(protocolText(n))).toBe(n);
    }
    expect(names.size).toBe(256);
  });

  it('knows the aliases, ignores case, and rejects unknown names', () => {
    expect(protocolNumber('iptm')).toBe(84);
    expect(protocolNumber('mobile')).toBe(55);
    expect(protocolNumber('TCP')).toBe(6);
    expect(protocolNumber('IPv6-ICMP')).toBe(58);
    expect(protocolNumber('nope')).toBeUndefined();
  });
});
