import { describe, expect, it } from 'vitest';
import { EgressError } from './egress-error.js';
import { EgressPolicy } from './egress-policy.js';

const NOTHING = { allowHosts: [], allowCidrs: [] };
const allowed = (policy: EgressPolicy, address: string, port = 443, host = 'svc.example') =>
  policy.decide(host, address, port).allowed;

describe('EgressPolicy: which addresses a tenant-chosen URL may reach', () => {
  const policy = new EgressPolicy(NOTHING);

  it('allows public unicast addresses, IPv4 and IPv6', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:2800:220:1:248:1893:25c8:1946', '2a00:1450::1'])
      expect(allowed(policy, address), address).toBe(true);
  });

  it('refuses loopback, private, link-local (the metadata service), CGNAT, ULA, unspecified, multicast and reserved ranges', () => {
    for (const address of [
      '127.0.0.1',
      '127.42.0.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.254',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.254',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '192.0.2.1',
      '240.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '2001:db8::1',
    ])
      expect(allowed(policy, address), address).toBe(false);
  });

  it('sees through IPv6 forms of IPv4 addresses: mapped, translated, NAT64, IPv4-compatible, 6to4', () => {
    for (const address of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '::ffff:10.0.0.1',
      '::ffff:0:10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '::127.0.0.1',
      '2002:7f00:1::',
    ])
      expect(allowed(policy, address), address).toBe(false);
    // The same forms of a public address reach a public address.
    expect(allowed(policy, '::ffff:93.184.216.34')).toBe(true);
    expect(allowed(policy, '64:ff9b::5db8:d822')).toBe(true);
  });

  it('opens what the platform allows: ranges, single addresses (IPv4 forms included) and host names', () => {
    const open = new EgressPolicy({
      allowHosts: ['CRM.corp.example.', '*.svc.cluster.local'],
      allowCidrs: ['10.20.0.0/16', '127.0.0.1', 'fd00:1::/64', '::ffff:192.168.0.0/112'],
    });
    expect(allowed(open, '10.20.1.1')).toBe(true);
    expect(allowed(open, '10.21.0.1')).toBe(false);
    expect(allowed(open, '127.0.0.1')).toBe(true);
    expect(allowed(open, '::ffff:127.0.0.1')).toBe(true);
    expect(allowed(open, '127.0.0.2')).toBe(false);
    expect(allowed(open, 'fd00:1::5')).toBe(true);
    expect(allowed(open, 'fd00:2::5')).toBe(false);
    expect(allowed(open, '192.168.0.9')).toBe(true);
    expect(allowed(open, '10.9.9.9', 443, 'crm.corp.example')).toBe(true);
    expect(allowed(open, '10.9.9.9', 443, 'billing.svc.cluster.local')).toBe(true);
    expect(allowed(open, '10.9.9.9', 443, 'svc.cluster.local.evil.example')).toBe(false);
    expect(allowed(open, '10.9.9.9', 443, 'evilcrm.corp.example')).toBe(false);
    expect(() => new EgressPolicy({ allowHosts: [], allowCidrs: ['10.0.0.0/33'] })).toThrow(TypeError);
    expect(() => new EgressPolicy({ allowHosts: [], allowCidrs: ['intranet'] })).toThrow(TypeError);
  });

  it('refuses the gateway’s own port on its own addresses, whatever is allowed', () => {
    const self = new EgressPolicy({ allowHosts: ['gw.local'], allowCidrs: ['127.0.0.0/8', '::/0'] }, () => [
      3000,
    ]);
    for (const address of ['127.0.0.1', '127.0.0.2', '::1', '0.0.0.0', '::ffff:127.0.0.1'])
      expect(allowed(self, address, 3000, 'gw.local'), address).toBe(false);
    expect(allowed(self, '127.0.0.1', 3001)).toBe(true);
  });

  it('pins a name only when every address it resolves to is allowed, and never names the address in its message', async () => {
    const names: Record<string, string[]> = {
      'public.example': ['93.184.216.34', '2606:2800:220:1::1'],
      'mixed.example': ['93.184.216.34', '10.0.0.7'],
      'meta.example': ['169.254.169.254'],
    };
    let lookups = 0;
    const dns = new EgressPolicy({
      ...NOTHING,
      resolveHost: async (host) => {
        lookups++;
        return (names[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      },
    });
    await expect(dns.pin('PUBLIC.example.', 443)).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    for (const host of ['mixed.example', 'meta.example']) {
      const err = await dns.pin(host, 80).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EgressError);
      expect(err).toMatchObject({ failure: 'egress_denied' });
      expect((err as Error).message).not.toMatch(/10\.0\.0\.7|169\.254/);
      expect((err as EgressError).detail).toContain(host);
    }
    await expect(dns.pin('nowhere.example', 80)).rejects.toMatchObject({ failure: 'unresolvable' });
    const before = lookups;
    await expect(dns.pin('[::1]', 80)).rejects.toMatchObject({ failure: 'egress_denied' });
    await expect(dns.pin('93.184.216.34', 80)).resolves.toMatchObject({ address: '93.184.216.34' });
    expect(lookups).toBe(before);
    await expect(dns.check('file:///etc/passwd')).rejects.toMatchObject({ failure: 'scheme' });
  });
});
