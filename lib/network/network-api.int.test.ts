// The network routes through the REST door on a real database: validation with field issues, the
// same issues on the config writes (and no row left behind), secrets sealed and masked, the audit
// record, roles, the tester, clone and backend changes.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, sandboxConfigs } from '@/db/schema';
import { type ConfigFixture, docker, e2b, startConfigFixture } from '@/test/helpers/sandbox-configs';
import { policySecrets } from './store';

let f: ConfigFixture;
const call: ConfigFixture['call'] = (...a) => f.call(...a);

beforeAll(async () => {
  f = await startConfigFixture();
});
afterAll(async () => {
  await f?.stop();
});

const hostRules = [{ host: 'api.example.com', headers: { Authorization: 'Bearer sk-network-secret-1' } }];

describe('validation', () => {
  it('normalises a valid policy and names each rejected entry with its rule', async () => {
    const ok = await call('validateNetworkPolicy', f.tokens.viewer, {
      body: { backend: 'docker', policy: { denyEgressByDefault: true, allowOut: ['10.1.2.3/8', 'Example.COM.', '2001:db8::1'], denyOut: ['192.168.1.7'] } },
    });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ valid: true, issues: [] });
    expect(ok.json.policy).toMatchObject({ allowOut: ['10.0.0.0/8', 'example.com', '2001:db8::1/128'], denyOut: ['192.168.1.7/32'] });
    const bad = await call('validateNetworkPolicy', f.tokens.viewer, {
      body: { backend: 'docker', policy: { allowOut: ['x.com:443', 'a..b', '169.254.169.254'], denyOut: ['x.com'] } },
    });
    expect(bad.status).toBe(200);
    expect(bad.json.valid).toBe(false);
    expect(bad.json.policy).toBeNull();
    const paths = bad.json.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['allowOut.0', 'allowOut.1', 'allowOut.2', 'denyOut.0']));
    expect(bad.json.issues.find((i: { path: string }) => i.path === 'allowOut.0').message).toMatch(/a port is not allowed/);
  });

  it('refuses a config whose network policy is invalid with the same issues, and creates nothing', async () => {
    const before = await f.counts();
    const r = await call('createSandboxConfig', f.tokens.owner, { body: { ...docker(), network: { allowOut: ['x.com'] } } });
    expect(r.status).toBe(400);
    expect(r.json.error.issues[0].path).toBe('network.denyEgressByDefault');
    expect(await f.counts()).toEqual(before);
  });

  it('refuses a backend change the stored policy does not hold for', async () => {
    const { json: c } = await call('createSandboxConfig', f.tokens.owner, {
      body: { ...e2b(), network: { denyEgressByDefault: true, allowOut: ['pypi.org'] } },
    });
    const r = await call('updateSandboxConfig', f.tokens.owner, {
      params: { id: c.id },
      body: { backend: 'cube', config: { apiUrl: 'http://127.0.0.1:3998', domain: 'cube.test', templateId: 't1', apiKey: 'k', allowPrivateEndpoints: true } },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.issues[0].path).toMatch(/^network\.allowOut\.0/);
  });
});

describe('the policy of a config', () => {
  it('saves, masks and seals header secrets, keeps them on "***", audits the change, and needs sandboxes.write', async () => {
    const { json: c } = await call('createSandboxConfig', f.tokens.owner, { body: e2b() });
    const policy = { denyEgressByDefault: true, allowOut: ['api.example.com'], e2bHostRules: hostRules };
    expect((await call('setConfigNetwork', f.tokens.viewer, { params: { id: c.id }, body: { policy } })).status).toBe(403);
    const put = await call('setConfigNetwork', f.tokens.admin, { params: { id: c.id }, body: { policy } });
    expect(put.status).toBe(200);
    expect(put.json.policy.e2bHostRules[0].headers.Authorization).toBe('***');
    expect(put.json).toMatchObject({ enforcedBy: 'e2b', liveUpdate: true });
    const [row] = await f.s.database.db.select().from(sandboxConfigs).where(eq(sandboxConfigs.id, c.id));
    expect(JSON.stringify(row)).not.toContain('sk-network-secret-1');
    expect(JSON.stringify(await f.s.database.db.select().from(auditLog))).not.toContain('sk-network-secret-1');
    expect(policySecrets(f.s.secrets, row)).toEqual({ 'e2b:api.example.com:authorization': 'Bearer sk-network-secret-1' });
    const [audit] = await f.s.database.db.select().from(auditLog).where(eq(auditLog.action, 'sandbox.network.update'));
    expect(audit.targetId).toBe(c.id);
    const keep = await call('setConfigNetwork', f.tokens.admin, {
      params: { id: c.id },
      body: {
        policy: { ...policy, allowOut: ['api.example.com', '10.0.0.0/8'], e2bHostRules: [{ host: 'api.example.com', headers: { Authorization: '***' } }] },
      },
    });
    expect(keep.status).toBe(200);
    const [kept] = await f.s.database.db.select().from(sandboxConfigs).where(eq(sandboxConfigs.id, c.id));
    expect(policySecrets(f.s.secrets, kept)['e2b:api.example.com:authorization']).toBe('Bearer sk-network-secret-1');
    const got = await call('getConfigNetwork', f.tokens.viewer, { params: { id: c.id } });
    expect(got.json.policy.allowOut).toEqual(['api.example.com', '10.0.0.0/8']);
    expect(got.json.alwaysBlocked.map((r: { cidr: string }) => r.cidr)).toEqual(expect.arrayContaining(['169.254.0.0/16', 'fd00:ec2::254/128']));
  });

  it('answers 400 with the validation issues and leaves the stored policy as it was', async () => {
    const { json: c } = await call('createSandboxConfig', f.tokens.owner, { body: { ...docker(), network: { denyOut: ['10.0.0.0/8'] } } });
    const r = await call('setConfigNetwork', f.tokens.admin, { params: { id: c.id }, body: { policy: { allowOut: ['*.*.x.com'] } } });
    expect(r.status).toBe(400);
    expect(r.json.error.issues[0].path).toBe('allowOut.0');
    const got = await call('getConfigNetwork', f.tokens.viewer, { params: { id: c.id } });
    expect(got.json.policy.denyOut).toEqual(['10.0.0.0/8']);
  });

  it('saves nothing when the host firewall refuses the rules: 500 network_apply_failed, the old policy and audit as they were', async () => {
    const { json: c } = await call('createSandboxConfig', f.tokens.owner, { body: { ...docker(), network: { denyOut: ['10.0.0.0/8'] } } });
    const audits = async () => (await f.s.database.db.select().from(auditLog).where(eq(auditLog.targetId, c.id))).length;
    const auditsBefore = await audits();
    const deps = f.s.sandboxes as { network?: unknown };
    const real = deps.network;
    // The firewall's own refusal, as `nft -f` reports one; everything else is the real service.
    const refused = new Error('nft exited 1: Error: Could not process rule: No buffer space available');
    deps.network = { ...(real as object), control: { table: 't', proxyPort: 1, dnsPort: 1, update: () => Promise.reject(refused) } };
    try {
      const r = await call('setConfigNetwork', f.tokens.admin, { params: { id: c.id }, body: { policy: { denyOut: ['10.0.0.0/8', '192.0.2.0/24'] } } });
      expect(r.status).toBe(500);
      expect(r.json.error.code).toBe('network_apply_failed');
      expect(r.json.error.message).toContain('not saved');
      expect(r.json.error.message).toContain('No buffer space available');
    } finally {
      deps.network = real;
    }
    const got = await call('getConfigNetwork', f.tokens.viewer, { params: { id: c.id } });
    expect(got.json.policy.denyOut).toEqual(['10.0.0.0/8']);
    expect(await audits()).toBe(auditsBefore);
  });

  it('tests destinations against the saved policy without sending traffic, naming the rule', async () => {
    const { json: c } = await call('createSandboxConfig', f.tokens.owner, {
      body: { ...docker(), network: { denyEgressByDefault: true, allowOut: ['*.pypi.org', '10.20.0.0/16'] } },
    });
    const test = (destination: string) => call('testConfigNetwork', f.tokens.viewer, { params: { id: c.id }, body: { destination } });
    const files = await test('https://files.pypi.org/simple/');
    expect(files.status).toBe(200);
    expect(files.json).toMatchObject({ allowed: true, kind: 'allow-domain', entry: '*.pypi.org', destination: { host: 'files.pypi.org', port: 443 } });
    expect((await test('pypi.org')).json).toMatchObject({ allowed: false, kind: 'default-deny' });
    expect((await test('10.20.3.4:8080')).json).toMatchObject({ allowed: true, kind: 'allow-out', entry: '10.20.0.0/16' });
    expect((await test('169.254.169.254')).json).toMatchObject({ allowed: false, kind: 'always-blocked' });
    expect((await test('192.168.1.1')).json).toMatchObject({ allowed: false, kind: 'private' });
    const bad = await test('2852039166');
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues[0].path).toBe('destination');
  });

  it('says where E2B or Cube would not decide as the rules do, in the tester and in the view', async () => {
    const { json: onE2b } = await call('createSandboxConfig', f.tokens.owner, {
      body: { ...e2b(), network: { denyEgressByDefault: true, allowOut: ['api.example.com', '10.20.0.0/16'] } },
    });
    const test = (id: string, destination: string) => call('testConfigNetwork', f.tokens.viewer, { params: { id }, body: { destination } });
    const named = (await test(onE2b.id, 'https://api.example.com/')).json;
    expect(named).toMatchObject({ allowed: true, kind: 'allow-domain', enforcedBy: 'e2b' });
    expect(named.caveat).toMatch(/168\.63\.129\.16\/32/);
    expect((await test(onE2b.id, '1.1.1.1:53')).json).toMatchObject({
      allowed: false,
      kind: 'dns',
      caveat: expect.stringMatching(/E2B does not enforce this rule/),
    });
    // Where E2B is sent what it needs (the fixed ranges in denyOut), there is no caveat.
    expect((await test(onE2b.id, '169.254.169.254')).json).toMatchObject({ allowed: false, kind: 'always-blocked', caveat: null });
    const view = (await call('getConfigNetwork', f.tokens.viewer, { params: { id: onE2b.id } })).json;
    expect(view.backendGaps.join(' ')).toMatch(/not blocked by E2B/);

    const { json: onCube } = await call('createSandboxConfig', f.tokens.owner, {
      body: {
        name: `cube-${Date.now()}`,
        backend: 'cube',
        config: { apiUrl: 'http://127.0.0.1:3998', domain: 'cube.test', templateId: 't1', apiKey: 'k', allowPrivateEndpoints: true },
        network: { denyEgressByDefault: true, allowOut: ['10.20.0.0/16', '203.0.113.0/24'] },
      },
    });
    expect(onCube.id).toBeTruthy();
    expect((await test(onCube.id, '10.20.3.4:5432')).json).toMatchObject({ allowed: true, caveat: expect.stringMatching(/Cube blocks this address anyway/) });
    expect((await test(onCube.id, '203.0.113.9:443')).json).toMatchObject({ allowed: true, caveat: null });
    const docker1 = (
      await call('createSandboxConfig', f.tokens.owner, { body: { ...docker(), network: { allowOut: ['api.example.com'], denyOut: ['::/0'] } } })
    ).json;
    expect((await test(docker1.id, 'https://api.example.com/')).json).toMatchObject({ allowed: true, caveat: null });
    expect((await call('getConfigNetwork', f.tokens.viewer, { params: { id: docker1.id } })).json.backendGaps).toEqual([]);
  });

  it('copies the policy and its sealed secrets to a clone', async () => {
    const { json: c } = await call('createSandboxConfig', f.tokens.owner, {
      body: { ...e2b(), network: { denyEgressByDefault: true, allowOut: ['api.example.com'], e2bHostRules: hostRules } },
    });
    const clone = await call('cloneSandboxConfig', f.tokens.owner, { params: { id: c.id }, body: { name: `${c.name}-copy` } });
    expect(clone.status).toBe(201);
    const [row] = await f.s.database.db.select().from(sandboxConfigs).where(eq(sandboxConfigs.id, clone.json.id));
    expect(policySecrets(f.s.secrets, row)).toEqual({ 'e2b:api.example.com:authorization': 'Bearer sk-network-secret-1' });
    expect((row.networkPolicy as { allowOut: string[] }).allowOut).toEqual(['api.example.com']);
  });
});
