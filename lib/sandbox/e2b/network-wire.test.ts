import { describe, expect, it } from 'vitest';
import { parseCidr, parseIp } from '@/lib/network/policy/addr';
import { ALWAYS_BLOCKED_V4, ALWAYS_BLOCKED_V6, PRIVATE_V4, PRIVATE_V6 } from '@/lib/network/policy/ranges';
import { type NetworkPolicy, OPEN_POLICY } from '@/lib/network/policy/types';
import { DENY_ALL_OUT, FIXED_DENY_OUT, networkUpdateWire, networkWire } from './network-wire';

const rule = { host: 'api.example.com', headers: { Authorization: '***' } };
const secrets = { 'e2b:api.example.com:Authorization': 'Bearer x1' };
const FIXED = [...FIXED_DENY_OUT];

/** Whether an address lies in any CIDR of the list (same family). */
const covered = (list: string[], ip: string) => {
  const a = parseIp(ip)!;
  return list.some((c) => {
    const p = parseCidr(c);
    return p !== null && p[0].kind() === a.kind() && a.match(p[0] as never, p[1]);
  });
};

describe('networkWire', () => {
  it('sends every always-blocked and private range in denyOut, on both backends, whatever the policy', () => {
    expect(FIXED).toEqual([...ALWAYS_BLOCKED_V4, ...ALWAYS_BLOCKED_V6, ...PRIVATE_V4, ...PRIVATE_V6].map((r) => r.cidr));
    for (const kind of ['e2b', 'cube'] as const) {
      expect(networkWire(kind, OPEN_POLICY, {})).toEqual({ allow_internet_access: true, network: { allowOut: [], denyOut: FIXED } });
      for (const ip of ['169.254.169.254', '168.63.129.16', '100.100.100.200', '10.1.2.3', 'fd00:ec2::254', '::1', '64:ff9b::a9fe:a9fe']) {
        expect(covered(networkWire(kind, OPEN_POLICY, {}).network.denyOut, ip), `${kind} ${ip}`).toBe(true);
      }
    }
  });

  it('deny-by-default denies both families first, once', () => {
    const p: NetworkPolicy = { ...OPEN_POLICY, denyEgressByDefault: true, denyOut: ['0.0.0.0/0', '198.51.100.0/24'] };
    expect(networkWire('e2b', p, {}).network.denyOut).toEqual([...DENY_ALL_OUT, ...FIXED, '198.51.100.0/24']);
    expect(networkWire('e2b', { ...p, denyOut: ['198.51.100.0/24'] }, {}).network.denyOut).toEqual([...DENY_ALL_OUT, ...FIXED, '198.51.100.0/24']);
  });

  it('treats 0.0.0.0/0 and ::/0 in denyOut alike: internet access off, both families denied', () => {
    for (const all of ['0.0.0.0/0', '::/0']) {
      const w = networkWire('e2b', { ...OPEN_POLICY, denyOut: [all] }, {});
      expect(w.allow_internet_access, all).toBe(false);
      expect(w.network.denyOut.slice(0, 2), all).toEqual(['0.0.0.0/0', '::/0']);
    }
  });

  it('sends an allowed CIDR without its always-blocked parts, since allow beats deny there', () => {
    const w = networkWire('e2b', { ...OPEN_POLICY, allowOut: ['0.0.0.0/0', '169.0.0.0/8', '2001:db8::/32'] }, {});
    const allow = w.network.allowOut;
    for (const ip of ['169.254.169.254', '169.254.0.1', '127.0.0.1', '0.1.2.3', '224.0.0.1', '255.255.255.255', '168.63.129.16', '100.100.100.200']) {
      expect(covered(allow, ip), ip).toBe(false);
    }
    for (const ip of ['1.1.1.1', '169.253.255.255', '169.255.0.0', '100.100.100.199', '168.63.129.17', '223.255.255.255', '10.0.0.1', '2001:db8::5']) {
      expect(covered(allow, ip), ip).toBe(true);
    }
    expect(allow).toContain('2001:db8::/32');
  });

  it('Cube keeps CIDRs only and never sends host rules', () => {
    const p: NetworkPolicy = {
      ...OPEN_POLICY,
      denyEgressByDefault: true,
      allowOut: ['api.example.com', '*.x.org', '1.2.3.4/32', '2001:db8::/32'],
      e2bHostRules: [rule],
    };
    expect(networkWire('cube', p, secrets)).toEqual({
      allow_internet_access: false,
      network: { allowOut: ['1.2.3.4/32', '2001:db8::/32'], denyOut: [...DENY_ALL_OUT, ...FIXED] },
    });
    // fd00::/8 holds the AWS metadata address: it goes out in pieces around it.
    const split = networkWire('cube', { ...p, allowOut: ['fd00::/8'] }, {}).network.allowOut;
    expect(covered(split, 'fd00:ec2::254')).toBe(false);
    expect(covered(split, 'fd00:ec2::253') && covered(split, 'fd00::1') && covered(split, 'fdff::1')).toBe(true);
  });

  it('E2B host rules take their values from the opened secrets; a missing one is a validation error naming the header only', () => {
    const p: NetworkPolicy = { ...OPEN_POLICY, denyEgressByDefault: true, allowOut: ['api.example.com'], e2bHostRules: [rule] };
    expect(networkWire('e2b', p, secrets).network.rules).toEqual({ 'api.example.com': [{ transform: { headers: { Authorization: 'Bearer x1' } } }] });
    expect(() => networkWire('e2b', p, {})).toThrow(
      expect.objectContaining({ code: 'validation', issues: [{ path: 'e2bHostRules.0.headers.Authorization', message: expect.any(String) }] }),
    );
  });

  it('the update body is flat and whole', () => {
    expect(networkUpdateWire('e2b', { ...OPEN_POLICY, allowOut: ['1.2.3.4/32'] }, {})).toEqual({
      allow_internet_access: true,
      allowOut: ['1.2.3.4/32'],
      denyOut: FIXED,
    });
  });
});
