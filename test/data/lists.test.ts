import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataError } from '../../src/data/errors.js';
import { createListRegistry, MANAGED_LISTS, parseListFile } from '../../src/data/lists.js';
import { parseCidr } from '../../src/net/cidr.js';
import { IpSetBuilder } from '../../src/net/ip-set.js';
import { parseIPv4 } from '../../src/net/ipv4.js';
import { parseIPv6 } from '../../src/net/ipv6.js';
import { tempDir } from '../helpers/temp-dir.js';

const ip4 = (t: string) => parseIPv4(t);
const ip6 = (t: string) => parseIPv6(t)!;
const samples = new URL('../../datasets/lists/', import.meta.url);

describe('bundled sample lists', () => {
  it('has one file per managed list, and only those', () => {
    expect(readdirSync(samples).sort()).toEqual(MANAGED_LISTS.map((n) => `${n}.txt`).sort());
  });

  it('holds only documentation and benchmarking addresses (RFC 5737, RFC 2544, RFC 3849)', () => {
    const doc = new IpSetBuilder();
    for (const t of ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '198.18.0.0/15', '2001:db8::/32']) {
      const c = parseCidr(t);
      if (c.family === 4) doc.addPrefix4(c.v4, c.len);
      else doc.addPrefix6(c.v6, c.len);
    }
    const docSet = doc.build();
    for (const name of MANAGED_LISTS) {
      const lines = readFileSync(new URL(`${name}.txt`, samples), 'utf8').split('\n').map((l) => l.replace(/#.*/, '').trim()).filter((l) => l !== '');
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        const c = parseCidr(line);
        expect(c.family === 4 ? docSet.has4(c.v4) : docSet.has6(c.v6), `${name}: ${line}`).toBe(true);
      }
    }
  });

  it('resolves every managed list under svc.*, the vendor alias cf.*, with or without $', () => {
    const lists = createListRegistry({});
    for (const name of MANAGED_LISTS) {
      const set = lists.resolve(name);
      expect(set).toBeDefined();
      expect(lists.resolve(`$${name}`)).toBe(set);
      expect(lists.resolve(name.replace('svc.', 'cf.'))).toBe(set);
    }
    expect(lists.resolve('svc.anonymizer')!.has4(ip4('198.18.0.130'))).toBe(true);
    expect(lists.resolve('svc.vpn')!.has4(ip4('198.18.0.130'))).toBe(false);
    expect(lists.resolve('svc.botnetcc')!.has6(ip6('2001:db8:c::66'))).toBe(true);
    expect(lists.resolve('svc.unknown')).toBeUndefined();
  });

  it("holds none of the demo's or synth's servers, nor a suite packet's default source (issue 32)", () => {
    const lists = createListRegistry({});
    const servers4 = ['203.0.113.10', '203.0.113.11', '203.0.113.20', '198.51.100.53', '198.51.100.20'];
    for (const name of MANAGED_LISTS) {
      const set = lists.resolve(name)!;
      for (const t of servers4) expect(set.has4(ip4(t)), `${name} holds ${t}`).toBe(false);
      for (let host = 0; host < 256; host++) expect(set.has4(ip4(`203.0.113.${host}`)), `${name} holds 203.0.113.${host}`).toBe(false);
      for (const t of ['2001:db8:ffff::10', '2001:db8:ffff::11', '2001:db8:53::53', '2001:db8::20']) expect(set.has6(ip6(t)), `${name} holds ${t}`).toBe(false);
    }
  });

  it('says each sample a rule reads, and only without --lists', () => {
    const heard: string[] = [];
    const samplesRead = createListRegistry({ onSample: (n) => heard.push(n) });
    samplesRead.resolve('cf.anonymizer');
    samplesRead.resolve('svc.anonymizer');
    samplesRead.resolve('svc.vpn');
    expect(heard).toEqual(['svc.anonymizer', 'svc.vpn']);
    const dir = tempDir('edgesim-feeds-');
    writeFileSync(path.join(dir, 'svc.vpn.txt'), '100.64.0.0/10\n');
    createListRegistry({ dir, onSample: (n) => heard.push(n) }).resolve('svc.vpn');
    expect(heard).toEqual(['svc.anonymizer', 'svc.vpn']);
  });

  it('anonymizer contains the open-proxy and VPN samples', () => {
    const lists = createListRegistry({});
    const anonymizer = lists.resolve('svc.anonymizer')!;
    for (const t of ['198.18.0.0', '198.18.0.63', '198.18.0.64', '198.18.0.127']) expect(anonymizer.has4(ip4(t))).toBe(true);
    expect(anonymizer.has6(ip6('2001:db8:a:2::1'))).toBe(true);
  });
});

describe('list files', () => {
  it('reads addresses and CIDRs, skipping comments and blank lines', () => {
    const set = parseListFile('# header\n\n10.0.0.0/8   # private\r\n  192.0.2.1\n2001:db8::/48\n', 'x.txt');
    expect([set.has4(ip4('10.9.9.9')), set.has4(ip4('192.0.2.1')), set.has4(ip4('192.0.2.2')), set.has6(ip6('2001:db8:0:1::'))]).toEqual([true, true, false, true]);
    expect(set.ranges4).toBe(2);
  });

  it.each([
    ['10.0.0.1/8\n', 'feed.txt:1: "10.0.0.1/8": host bits are set (did you mean 10.0.0.0/8?)'],
    ['# ok\n1.2.3.4\n\n999.1.1.1 # bad\n', 'feed.txt:4: "999.1.1.1": not an IPv4 or IPv6 address'],
    ['1.2.3.4 5.6.7.8\n', 'feed.txt:1: "1.2.3.4 5.6.7.8": not an IPv4 or IPv6 address'],
  ])('names file:line and the text of a bad line', (text, message) => {
    expect(() => parseListFile(text, 'feed.txt')).toThrow(DataError);
    expect(() => parseListFile(text, 'feed.txt')).toThrow(message);
  });
});

describe('--lists DIR', () => {
  it('replaces the samples with the feeds in DIR (svc.* or cf.* file names)', () => {
    const dir = tempDir('edgesim-lists-');
    writeFileSync(path.join(dir, 'svc.vpn.txt'), '100.64.0.0/10\n');
    writeFileSync(path.join(dir, 'cf.malware.txt'), '100.127.0.1\n');
    const lists = createListRegistry({ dir });
    expect(lists.resolve('svc.vpn')!.has4(ip4('100.100.0.1'))).toBe(true);
    expect(lists.resolve('svc.vpn')!.has4(ip4('198.18.0.64'))).toBe(false);
    expect(lists.resolve('cf.malware')!.has4(ip4('100.127.0.1'))).toBe(true);
    expect(() => lists.resolve('svc.botnetcc')).toThrow(`${dir}: no feed for $svc.botnetcc (expected svc.botnetcc.txt or cf.botnetcc.txt)`);
  });

  it('reports a bad feed line with its path and line', () => {
    const dir = tempDir('edgesim-lists-');
    writeFileSync(path.join(dir, 'svc.vpn.txt'), '1.1.1.1\n1.1.1.1/33\n');
    expect(() => createListRegistry({ dir }).resolve('svc.vpn')).toThrow(`${path.join(dir, 'svc.vpn.txt')}:2: "1.1.1.1/33": prefix length 33 is larger than 32`);
  });

  it('refuses a folder that does not exist', () => {
    expect(() => createListRegistry({ dir: '/nonexistent/feeds' })).toThrow('/nonexistent/feeds: not a folder of list feeds (--lists DIR)');
  });
});

describe('account lists', () => {
  it('resolves ip lists by name from the snapshot', () => {
    const lists = createListRegistry({
      accountLists: [
        { name: 'office', kind: 'ip', items: [{ ip: '192.0.2.0/24' }, { ip: '2001:db8::1' }] },
        { name: 'empty', kind: 'ip' },
        { name: 'hosts', kind: 'hostname', items: [] },
      ],
    });
    expect(lists.resolve('office')!.has4(ip4('192.0.2.200'))).toBe(true);
    expect(lists.resolve('$office')!.has6(ip6('2001:db8::1'))).toBe(true);
    expect(lists.resolve('empty')!.has4(0)).toBe(false);
    expect(lists.resolve('hosts')).toBeUndefined();
    expect(lists.resolve('other')).toBeUndefined();
  });

  it('names the list and item of a bad address', () => {
    const accountLists = [{ name: 'a', kind: 'ip', items: [] }, { name: 'office', kind: 'ip', items: [{ ip: '10.0.0.0/8' }, { ip: '10.0.0.1/8' }] }];
    expect(() => createListRegistry({ accountLists })).toThrow('lists[1] (office) items[1]: "10.0.0.1/8": host bits are set (did you mean 10.0.0.0/8?)');
  });

  it('builds a 100,000-item list', () => {
    const items = Array.from({ length: 100_000 }, (_, i) => ({ ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }));
    const set = createListRegistry({ accountLists: [{ name: 'big', kind: 'ip', items }] }).resolve('big')!;
    expect(set.ranges4).toBe(1);
    expect([set.has4(ip4('10.1.134.159')), set.has4(ip4('10.1.134.160'))]).toEqual([true, false]);
  });
});
