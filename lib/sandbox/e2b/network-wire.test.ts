import { describe, expect, it } from 'vitest';
import { type NetworkPolicy, OPEN_POLICY } from '@/lib/network/policy/types';
import { networkUpdateWire, networkWire } from './network-wire';

const rule = { host: 'api.example.com', headers: { Authorization: '***' } };
const secrets = { 'e2b:api.example.com:Authorization': 'Bearer x1' };

describe('networkWire', () => {
  it('an open policy: internet access on, empty lists, no rules', () => {
    expect(networkWire('e2b', OPEN_POLICY, {})).toEqual({ allow_internet_access: true, network: { allowOut: [], denyOut: [] } });
    expect(networkWire('cube', OPEN_POLICY, {})).toEqual({ allow_internet_access: true, network: { allowOut: [], denyOut: [] } });
  });

  it('deny-by-default adds the all-traffic deny once', () => {
    const p: NetworkPolicy = { ...OPEN_POLICY, denyEgressByDefault: true, denyOut: ['0.0.0.0/0', '10.0.0.0/8'] };
    expect(networkWire('e2b', p, {}).network.denyOut).toEqual(['0.0.0.0/0', '10.0.0.0/8']);
    expect(networkWire('e2b', { ...p, denyOut: ['10.0.0.0/8'] }, {}).network.denyOut).toEqual(['0.0.0.0/0', '10.0.0.0/8']);
  });

  it('Cube keeps CIDRs only and never sends host rules', () => {
    const p: NetworkPolicy = {
      ...OPEN_POLICY,
      denyEgressByDefault: true,
      allowOut: ['api.example.com', '*.x.org', '1.2.3.4/32', 'fd00::/8'],
      e2bHostRules: [rule],
    };
    expect(networkWire('cube', p, secrets)).toEqual({
      allow_internet_access: false,
      network: { allowOut: ['1.2.3.4/32', 'fd00::/8'], denyOut: ['0.0.0.0/0'] },
    });
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
      denyOut: [],
    });
  });
});
