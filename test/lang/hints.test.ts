// List names are not checked at validation (as the engine), a `$cf.`/`$svc.` name that is not a
// managed list gets a CLI warning, and the did-you-mean hints `validate`/`explain` add after the
// engine's message.
import { describe, expect, it } from 'vitest';
import { FILTER_SCHEME, FIREWALL_SCHEME, hintFor, listWarnings, MANAGED_LISTS, parse, validateExpression } from '../../src/lang/index.js';

describe('list names at validation, as the engine: never checked', () => {
  it('managed lists in both spellings, account lists, and names no configuration could define are all valid', () => {
    for (const name of MANAGED_LISTS) {
      expect(validateExpression(`ip.src in $cf.${name}`, 'rule')).toBeNull();
      expect(validateExpression(`ip.dst in $svc.${name}`, 'rule')).toBeNull();
    }
    expect(validateExpression('ip.src in $office and ip.dst in $my.list', 'rule')).toBeNull();
    expect(validateExpression('tcp.dstport == 22 and ip.src in $cf.anonymiser', 'rule')).toBeNull();
    expect(validateExpression('ip.dst in $svc.mal', 'rule')).toBeNull();
  });
});

describe('listWarnings (the CLI\'s warning for a valid expression)', () => {
  const warnings = (expr: string) => listWarnings(parse(expr, FIREWALL_SCHEME));

  it('a $cf./$svc. name that is not a managed list: the one it probably means, else all of them', () => {
    expect(warnings('tcp.dstport == 22 and ip.src in $cf.anonymiser')).toEqual([
      '$cf.anonymiser is not a managed list, so no configuration can define it: did you mean $cf.anonymizer?',
    ]);
    expect(warnings('ip.dst in $svc.mal')).toEqual(['$svc.mal is not a managed list, so no configuration can define it: did you mean $svc.malware?']);
    expect(warnings('ip.src in $svc.tor')).toEqual([
      '$svc.tor is not a managed list, so no configuration can define it: the managed lists are $svc.anonymizer, $svc.botnetcc, $svc.malware, $svc.open_proxies, $svc.vpn',
    ]);
  });

  it('none for managed lists; for account lists, that nothing checks them without a configuration', () => {
    expect(warnings('ip.src in $cf.vpn or ip.dst in $svc.botnetcc')).toEqual([]);
    expect(warnings('ip.src in $cf.vpn or ip.src in $office or ip.src in $my.list or ip.dst in $cfx')).toEqual([
      '$office is not checked without a configuration: an account list of that name must exist where the rule is used',
      '$my.list is not checked without a configuration: an account list of that name must exist where the rule is used',
      '$cfx is not checked without a configuration: an account list of that name must exist where the rule is used',
    ]);
  });
});

describe('hintFor', () => {
  const hint = (expr: string, scheme = FIREWALL_SCHEME) => {
    const err = validateExpression(expr, scheme === FIREWALL_SCHEME ? 'rule' : 'filter');
    if (!err) throw new Error(`${expr} is valid`);
    return hintFor(expr, err, scheme);
  };

  it('Wireshark names', () => {
    expect(hint('tcp.port == 80')).toBe('did you mean tcp.dstport or tcp.srcport?');
    expect(hint('ip.src == 10.0.0.1 and ip.addr == 1.2.3.4')).toBe('did you mean ip.src or ip.dst?');
    expect(hint('udp.port in {53}')).toBe('did you mean udp.dstport or udp.srcport?');
    expect(hint('tcp.flags.rst')).toBe('did you mean tcp.flags.reset?');
    expect(hint('tcp.port == 80', FILTER_SCHEME)).toBe('did you mean tcp.dstport or tcp.srcport?');
  });

  it('near misses of field names; nothing when nothing is near', () => {
    expect(hint('tcp.dstprot == 1')).toBe('did you mean tcp.dstport?');
    expect(hint('http.request.uri == "/"')).toBeNull();
  });

  it('an unknown identifier named like an Object.prototype member is an unknown identifier like any other', () => {
    for (const name of Object.getOwnPropertyNames(Object.prototype)) {
      expect(hint(`${name} == 1`)).toBeNull();
      expect(hint(name)).toBeNull();
    }
  });

  it('a field used as a condition', () => {
    expect(hint('tcp')).toBe('tcp is the raw TCP header (Bytes), not a condition: did you mean ip.proto == "tcp"?');
    expect(hint('udp and tcp.dstport == 1')).toBe('udp is the raw UDP header (Bytes), not a condition: did you mean ip.proto == "udp"?');
    expect(hint('not ip')).toBe('ip is the raw IP header (Bytes), not a condition');
    expect(hint('(tcp.dstport)')).toBe('tcp.dstport is an Int field: compare it with a value, for example tcp.dstport == 80');
    expect(hint('ip.src')).toBe('ip.src is an Ip field: compare it with a value, for example ip.src in {192.0.2.0/24}');
    expect(hint('tcp.dstport 80')).toBe('tcp.dstport is an Int field: compare it with a value, for example tcp.dstport == 80');
  });

  it('a bare word compared with a Bytes field: quote it', () => {
    expect(hint('ip.proto == tcp')).toBe('a Bytes value is written in quotes: ip.proto == "tcp"');
    expect(hint('tcp.dstport == 22 and ip.proto ne udp')).toBe('a Bytes value is written in quotes: ip.proto ne "udp"');
  });

  it('a network compared with == or !=: in {…} takes networks', () => {
    expect(hint('ip.src == 10.0.0.0/8')).toBe('== compares one address; for a network write ip.src in {10.0.0.0/8}');
    expect(hint('tcp.dstport == 22 and ip.dst != 192.0.2.0/24')).toBe('!= compares one address; for a network write not ip.dst in {192.0.2.0/24}');
    expect(hint('ip.src == 10.0.0.0/8', FILTER_SCHEME)).toBe('== compares one address; for a network write ip.src in {10.0.0.0/8}');
  });

  it('a firewall field in an ATP filter: the four fields it may use', () => {
    expect(hint('udp.dstport == 53', FILTER_SCHEME)).toBe('udp.dstport is a firewall rule field: an ATP filter may use only ip.src, ip.dst, tcp.srcport or tcp.dstport');
    expect(hint('ip.src in {10.0.0.0/8} and ip.src.country == "US"', FILTER_SCHEME)).toBe(
      'ip.src.country is a firewall rule field: an ATP filter may use only ip.src, ip.dst, tcp.srcport or tcp.dstport',
    );
  });

  it('no hint for other errors', () => {
    expect(hint('tcp.dstport == "80"')).toBeNull();
    expect(hint('ip.src == 1.2.3.4 or')).toBeNull();
  });
});
