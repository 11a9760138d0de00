// Network policies as the E2B and Cube control planes receive them (the loopback E2B server records
// the create's `allow_internet_access`/`network` and each `PUT …/network`): deny-all, CIDRs,
// domains, E2B host rules with their opened header secrets, live updates on E2B, none on Cube.
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NetworkPolicy, OPEN_POLICY } from '@/lib/network/policy/types';
import { describeDocker } from '@/test/helpers/docker';
import { type E2bServer, serverContainers, startE2bServer } from '@/test/helpers/e2b-server';
import { E2bBackend } from './backend';
import type { E2bKind } from './config';
import { DENY_ALL_OUT, FIXED_DENY_OUT } from './network-wire';

const DENY_ALL: NetworkPolicy = { ...OPEN_POLICY, denyEgressByDefault: true };
const CIDRS: NetworkPolicy = { ...OPEN_POLICY, allowOut: ['10.1.0.0/16', '192.0.2.7/32', '2001:db8::/32'], denyOut: ['203.0.113.0/24', '2001:db8:dead::/48'] };
// Every denyOut carries the always-blocked and private ranges; deny-all adds both families first.
const CLOSED = [...DENY_ALL_OUT, ...FIXED_DENY_OUT];
const DOMAINS: NetworkPolicy = {
  denyEgressByDefault: true,
  allowOut: ['api.example.com', '*.pypi.org', '192.0.2.10/32'],
  denyOut: ['198.51.100.0/24'],
  e2bHostRules: [{ host: 'api.example.com', headers: { Authorization: '***', 'X-Team': '***' } }],
  cubeRules: [
    {
      name: 'gh',
      scheme: 'https',
      sni: '',
      host: 'api.github.com',
      methods: ['GET'],
      path: '/',
      deny: false,
      audit: 'metadata',
      inject: [{ header: 'Authorization', secret: '***', format: 'Bearer {}' }],
    },
  ],
};
const SECRETS = { 'e2b:api.example.com:Authorization': 'Bearer s3cret-a', 'e2b:api.example.com:X-Team': 'team-7', 'cube:gh:Authorization': 'cube-s3cret' };
const E2B_RULES = { 'api.example.com': [{ transform: { headers: { Authorization: 'Bearer s3cret-a', 'X-Team': 'team-7' } } }] };

describeDocker('network policies sent to the E2B and Cube control planes', () => {
  const docker = new Docker();
  const servers = {} as Record<E2bKind, E2bServer>;
  const backends = {} as Record<E2bKind, E2bBackend>;
  const created: [E2bKind, string][] = [];

  beforeAll(async () => {
    servers.e2b = await startE2bServer({ docker, flavor: 'e2b' });
    servers.cube = await startE2bServer({ docker, flavor: 'cube', apiKey: 'dummy' });
    for (const kind of ['e2b', 'cube'] as const) {
      const s = servers[kind];
      backends[kind] = new E2bBackend(
        kind,
        { apiUrl: s.apiUrl, apiKey: s.apiKey, domain: s.baseDomain, proxyUrl: s.proxyUrl, template: 'skilldock-test' },
        { lookup: s.lookup },
      );
    }
  });

  afterAll(async () => {
    await Promise.all(created.map(([k, id]) => backends[k].remove(id)));
    await Promise.all(Object.values(backends).map((b) => b.close()));
    await Promise.all(Object.values(servers).map((s) => s.close()));
    expect(await serverContainers(docker, ...Object.values(servers))).toEqual([]);
  });

  async function createWith(kind: E2bKind, spec: { networkPolicy?: NetworkPolicy; networkSecrets?: Record<string, string>; network?: string }) {
    const sb = await backends[kind].create({ image: 'skilldock-test', ...spec });
    created.push([kind, sb.id]);
    const records = servers[kind].networkLog.filter((r) => r.sandboxId === sb.id);
    expect(records).toHaveLength(1);
    return { id: sb.id, sent: records[0] };
  }

  describe('on create', () => {
    it('deny-all: internet access off and all traffic of both families denied, on both', async () => {
      for (const kind of ['e2b', 'cube'] as const) {
        const { sent } = await createWith(kind, { networkPolicy: DENY_ALL });
        expect(sent).toMatchObject({ route: 'create', allowInternetAccess: false, network: { allowOut: [], denyOut: CLOSED } });
      }
      // A Docker-style `none` network closes egress the same way.
      const { sent } = await createWith('e2b', { network: 'none' });
      expect(sent).toMatchObject({ allowInternetAccess: false, network: { allowOut: [], denyOut: CLOSED } });
    });

    it('allow and deny CIDRs go out as given after the fixed ranges, with internet access on', async () => {
      for (const kind of ['e2b', 'cube'] as const) {
        const { sent } = await createWith(kind, { networkPolicy: CIDRS });
        expect(sent).toMatchObject({ allowInternetAccess: true, network: { allowOut: CIDRS.allowOut, denyOut: [...FIXED_DENY_OUT, ...CIDRS.denyOut] } });
      }
    });

    it('E2B: domains in allowOut and host rules carrying the opened header secrets', async () => {
      const { sent } = await createWith('e2b', { networkPolicy: DOMAINS, networkSecrets: SECRETS });
      expect(sent.allowInternetAccess).toBe(false);
      expect(sent.network).toEqual({ allowOut: DOMAINS.allowOut, denyOut: [...CLOSED, '198.51.100.0/24'], rules: E2B_RULES });
      expect(JSON.stringify(sent)).not.toContain('***');
      expect(JSON.stringify(sent)).not.toContain('cube-s3cret');
    });

    it('Cube: CIDRs only; no domains, no L7 rules, no secrets, no allowPublicTraffic', async () => {
      const { sent } = await createWith('cube', { networkPolicy: DOMAINS, networkSecrets: SECRETS });
      expect(sent.allowInternetAccess).toBe(false);
      expect(sent.network).toEqual({ allowOut: ['192.0.2.10/32'], denyOut: [...CLOSED, '198.51.100.0/24'] });
      for (const secret of Object.values(SECRETS)) expect(JSON.stringify(sent)).not.toContain(secret);
    });

    it('refuses a host rule whose header value is not set, before asking the remote', async () => {
      const before = { seen: servers.e2b.seen.length, sandboxes: servers.e2b.sandboxes.size };
      const partial = { 'e2b:api.example.com:Authorization': 'Bearer s3cret-a' };
      const err = await backends.e2b.create({ image: 'skilldock-test', networkPolicy: DOMAINS, networkSecrets: partial }).catch((e) => e);
      expect(err).toMatchObject({ code: 'validation', issues: [{ path: 'e2bHostRules.0.headers.X-Team' }] });
      expect(JSON.stringify(err)).not.toContain('s3cret');
      expect({ seen: servers.e2b.seen.length, sandboxes: servers.e2b.sandboxes.size }).toEqual(before);
    });
  });

  describe('live updates', () => {
    it('E2B: the whole policy replaces the running sandbox’s rules', async () => {
      const { id } = await createWith('e2b', { networkPolicy: CIDRS });
      expect(await backends.e2b.applyNetworkPolicy(id, DOMAINS, undefined, SECRETS)).toBe('updated');
      const updates = () => servers.e2b.networkLog.filter((r) => r.sandboxId === id && r.route === 'update');
      expect(updates().at(-1)).toEqual({
        route: 'update',
        sandboxId: id,
        allowInternetAccess: false,
        network: { allowOut: DOMAINS.allowOut, denyOut: [...CLOSED, '198.51.100.0/24'], rules: E2B_RULES },
      });
      expect(servers.e2b.sandboxes.get(id)?.network).toEqual(updates().at(-1)?.network);
      // Opening up again sends empty lists (not omitted fields) and internet access on.
      expect(await backends.e2b.applyNetworkPolicy(id, OPEN_POLICY)).toBe('updated');
      expect(updates().at(-1)).toMatchObject({ allowInternetAccess: true, network: { allowOut: [], denyOut: FIXED_DENY_OUT } });
      expect(updates().at(-1)?.network).not.toHaveProperty('rules');
      expect(updates()).toHaveLength(2);
    });

    it('Cube: unsupported, and no request is made', async () => {
      const { id } = await createWith('cube', { networkPolicy: CIDRS });
      const before = servers.cube.seen.length;
      expect(await backends.cube.applyNetworkPolicy(id, DENY_ALL)).toBe('unsupported');
      expect(servers.cube.seen.length).toBe(before);
      expect(servers.cube.networkLog.filter((r) => r.route === 'update')).toEqual([]);
      expect(backends.cube.capabilities().networkUpdate).toBe(false);
    });
  });
});
