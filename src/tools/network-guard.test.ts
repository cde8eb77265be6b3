import { describe, expect, it } from 'vitest';
import { assertPublicUrl, isPrivateAddress, parseIpv4 } from './network-guard.js';

describe('isPrivateAddress: every IANA special-purpose range, in every spelling', () => {
  it('refuses each special-purpose IPv4 block, multicast and broadcast', () => {
    for (const ip of [
      '0.1.2.3',
      '100.64.0.1',
      '100.127.255.254',
      '192.0.0.8',
      '192.0.2.1',
      '192.31.196.1',
      '192.52.193.1',
      '192.88.99.1',
      '192.175.48.1',
      '198.18.0.1',
      '198.19.255.255',
      '198.51.100.7',
      '203.0.113.9',
      '224.0.0.1',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
    ]) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of [
      '100.63.255.255',
      '100.128.0.0',
      '198.17.255.255',
      '198.20.0.0',
      '223.255.255.255',
    ])
      expect(isPrivateAddress(ip), ip).toBe(false);
  });

  it('reads decimal, octal, hex and short IPv4 spellings', () => {
    expect(parseIpv4('2130706433')).toBe(0x7f000001);
    expect(parseIpv4('0177.0.0.1')).toBe(0x7f000001);
    expect(parseIpv4('0x7f.1')).toBe(0x7f000001);
    expect(parseIpv4('127.1')).toBe(0x7f000001);
    expect(parseIpv4('0xa9.0xfe.0xa9.0xfe')).toBe(0xa9fea9fe);
    for (const ip of ['2130706433', '0177.0.0.1', '0x7f.1', '127.1', '0x0A000001', '3232235521'])
      expect(isPrivateAddress(ip), ip).toBe(true);
    expect(parseIpv4('256.1.1.1')).toBeUndefined();
    expect(parseIpv4('1.2.3.4.5')).toBeUndefined();
  });

  it('refuses IPv6 special blocks and every form that embeds a private IPv4 address', () => {
    for (const ip of [
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a00:1',
      '::ffff:0:a00:1',
      '::127.0.0.1',
      '::a00:1',
      '64:ff9b::127.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::1',
      '2002:7f00:1::',
      '2002:c0a8:101::1',
      '2001::1',
      '2001:db8::1',
      '100::1',
      '3fff::1',
      'fc00::1',
      'fe80::1%eth0',
      'fec0::1',
      'ff02::1',
      '[::1]',
    ]) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ['2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])
      expect(isPrivateAddress(ip), ip).toBe(false);
  });

  it('refuses URLs spelt with such hosts before any connection', async () => {
    for (const url of [
      'http://2130706433/',
      'http://0x7f.1/',
      'http://0177.0.0.1/',
      'http://100.64.1.1/',
      'http://198.18.0.1/',
      'http://255.255.255.255/',
      'http://[::ffff:127.0.0.1]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[2002:7f00:1::]/',
    ]) {
      await expect(
        assertPublicUrl(new URL(url), { allowPrivate: false, lookup: async () => ['8.8.8.8'] }),
        url,
      ).rejects.toMatchObject({ code: 'forbidden' });
    }
  });
});
