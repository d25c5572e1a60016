// Managed lists are a fixed set (an unknown `$cf.`/`$svc.` list fails validation, account lists
// stay valid), and the did-you-mean hints `validate`/`explain` add after the engine's message.
import { describe, expect, it } from 'vitest';
import { FILTER_SCHEME, FIREWALL_SCHEME, hintFor, MANAGED_LISTS, validateExpression } from '../../src/lang/index.js';

describe('managed lists at validation', () => {
  it('every managed list is valid in both spellings; account lists are valid', () => {
    for (const name of MANAGED_LISTS) {
      expect(validateExpression(`ip.src in $cf.${name}`, 'rule')).toBeNull();
      expect(validateExpression(`ip.dst in $svc.${name}`, 'rule')).toBeNull();
    }
    expect(validateExpression('ip.src in $office and ip.dst in $my.list', 'rule')).toBeNull();
  });

  it('an unknown $cf./$svc. list is an error spanning the list, naming the managed lists', () => {
    const err = validateExpression('tcp.dstport == 22 and ip.src in $cf.anonymiser', 'rule')!;
    expect([err.code, err.start, err.end]).toEqual(['unknown_list', 32, 46]);
    expect(err.message).toBe(
      'Filter parsing error (1:33):\ntcp.dstport == 22 and ip.src in $cf.anonymiser\n' +
        '                                ^^^^^^^^^^^^^^ unknown list $cf.anonymiser: the managed lists are ' +
        '$cf.anonymizer, $cf.botnetcc, $cf.malware, $cf.open_proxies, $cf.vpn\n',
    );
    expect(validateExpression('ip.src in $svc.tor', 'rule')?.reason).toBe(
      'unknown list $svc.tor: the managed lists are $svc.anonymizer, $svc.botnetcc, $svc.malware, $svc.open_proxies, $svc.vpn',
    );
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

  it('near misses of field and managed-list names; nothing when nothing is near', () => {
    expect(hint('tcp.dstprot == 1')).toBe('did you mean tcp.dstport?');
    expect(hint('ip.src in $cf.anonymiser')).toBe('did you mean $cf.anonymizer?');
    expect(hint('http.request.uri == "/"')).toBeNull();
    expect(hint('ip.src in $svc.zzzzzzzz')).toBeNull();
  });

  it('a field used as a condition', () => {
    expect(hint('tcp')).toBe('tcp is the raw TCP header (Bytes), not a condition: did you mean ip.proto == "tcp"?');
    expect(hint('udp and tcp.dstport == 1')).toBe('udp is the raw UDP header (Bytes), not a condition: did you mean ip.proto == "udp"?');
    expect(hint('not ip')).toBe('ip is the raw IP header (Bytes), not a condition');
    expect(hint('(tcp.dstport)')).toBe('tcp.dstport is an Int field: compare it with a value, for example tcp.dstport == 80');
    expect(hint('ip.src')).toBe('ip.src is an Ip field: compare it with a value, for example ip.src in {192.0.2.0/24}');
    expect(hint('tcp.dstport 80')).toBe('tcp.dstport is an Int field: compare it with a value, for example tcp.dstport == 80');
  });

  it('no hint for other errors', () => {
    expect(hint('tcp.dstport == "80"')).toBeNull();
    expect(hint('ip.src == 1.2.3.4 or')).toBeNull();
  });
});
