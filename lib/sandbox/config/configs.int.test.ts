// Sandbox configs through the REST door on a real database: masking, "***" keeps a secret, the
// identity freeze, the edit lock, clone, audit, and env vars by level.
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, sandboxConfigs, sandboxEnvVars } from '@/db/schema';
import { type ConfigFixture, docker, e2b, startConfigFixture, unique } from '@/test/helpers/sandbox-configs';
import { loadEnvFor } from '../env/store';
import { openSecrets } from './view';

let f: ConfigFixture;
let owner: string;
let viewer: string;
let admin2: string;
const db = () => f.s.database.db;
const call: ConfigFixture['call'] = (...a) => f.call(...a);
const counts = () => f.counts();

beforeAll(async () => {
  f = await startConfigFixture();
  ({ owner, viewer, admin: admin2 } = f.tokens);
});

afterAll(async () => {
  await f?.stop();
});

describe('create, read, mask', () => {
  it('creates a Docker config disabled, with the defaults, and audits it', async () => {
    const r = await call('createSandboxConfig', owner, {
      body: docker({ host: 'tcp://127.0.0.1:2376', tlsCertPath: f.tlsDir, allowPrivateEndpoints: true, workspaceMount: path.join(f.wsRoot, 'team') }),
    });
    expect(r.status).toBe(201);
    expect(r.json.enabled).toBe(false);
    expect(r.json.config).toMatchObject({ image: 'busybox:1.36', cpuLimit: 2, memoryLimitMb: 2048, pidsLimit: 512, idleTtlSeconds: 1800 });
    const [a] = await db().select().from(auditLog).where(eq(auditLog.targetId, r.json.id));
    expect(a.action).toBe('sandbox.config.create');
  });

  it('seals an API key, answers "***" and never writes the plaintext to the config or the audit log', async () => {
    const r = await call('createSandboxConfig', owner, { body: e2b() });
    expect(r.status).toBe(201);
    expect(r.json.config.apiKey).toBe('***');
    const got = await call('getSandboxConfig', viewer, { params: { id: r.json.id } });
    expect(got.status).toBe(200);
    expect(got.json.config.apiKey).toBe('***');
    const [row] = await db().select().from(sandboxConfigs).where(eq(sandboxConfigs.id, r.json.id));
    expect(JSON.stringify(row)).not.toContain('e2b_live_secret_value');
    expect(JSON.stringify(await db().select().from(auditLog))).not.toContain('e2b_live_secret_value');
    expect(openSecrets(f.s.secrets, row).apiKey).toBe('e2b_live_secret_value');
  });

  it('"***" keeps the stored key, a new value replaces it, and the audit has before and after', async () => {
    const { json: c } = await call('createSandboxConfig', owner, { body: e2b() });
    const keep = await call('updateSandboxConfig', owner, {
      params: { id: c.id },
      body: { description: 'kept', config: { apiKey: '***', sandboxTtlSeconds: 600 } },
    });
    expect(keep.status).toBe(200);
    expect(keep.json.config).toMatchObject({ apiKey: '***', sandboxTtlSeconds: 600 });
    const row = async () => (await db().select().from(sandboxConfigs).where(eq(sandboxConfigs.id, c.id)))[0];
    expect(openSecrets(f.s.secrets, await row()).apiKey).toBe('e2b_live_secret_value');
    expect((await call('updateSandboxConfig', owner, { params: { id: c.id }, body: { config: { apiKey: 'a-new-key' } } })).status).toBe(200);
    expect(openSecrets(f.s.secrets, await row()).apiKey).toBe('a-new-key');
    const audits = await db().select().from(auditLog).where(eq(auditLog.targetId, c.id));
    const upd = audits.find((a) => a.action === 'sandbox.config.update' && (a.after as any).description === 'kept');
    expect((upd!.before as any).config.sandboxTtlSeconds).toBe(300);
    expect((upd!.after as any).config.sandboxTtlSeconds).toBe(600);
    expect(JSON.stringify(audits)).not.toContain('a-new-key');
  });

  it('a viewer reads but cannot write', async () => {
    expect((await call('listSandboxConfigs', viewer)).status).toBe(200);
    const r = await call('createSandboxConfig', viewer, { body: docker() });
    expect(r.status).toBe(403);
  });
});

describe('identity freeze, in-use protection, lock, clone', () => {
  it('refuses identity changes and delete while instances run (409 with the inventory), allows the rest', async () => {
    const { json: c } = await call('createSandboxConfig', owner, { body: e2b() });
    f.live.set(c.id, [{ id: 'sbx-1', state: 'running', createdAt: null }]);
    const before = await counts();
    for (const config of [{ apiUrl: 'http://127.0.0.1:4000' }, { apiKey: 'other' }, { domain: 'other.test' }, { proxyUrl: 'http://127.0.0.1:4001' }]) {
      const r = await call('updateSandboxConfig', owner, { params: { id: c.id }, body: { config } });
      expect(r.status).toBe(409);
      expect(r.json.error.code).toBe('config_in_use');
      expect(r.json.error.details.instances).toEqual([{ id: 'sbx-1', state: 'running', createdAt: null }]);
    }
    const backend = await call('updateSandboxConfig', owner, { params: { id: c.id }, body: { backend: 'docker', config: { image: 'busybox' } } });
    expect(backend.status).toBe(409);
    const del = await call('deleteSandboxConfig', owner, { params: { id: c.id } });
    expect(del.status).toBe(409);
    expect(del.json.error.details.instances).toHaveLength(1);
    expect(await counts()).toEqual(before);
    const ok = await call('updateSandboxConfig', owner, { params: { id: c.id }, body: { description: 'still editable', config: { sandboxTtlSeconds: 900 } } });
    expect(ok.status).toBe(200);
    expect(ok.json.lockedUntil).toBeNull();
    f.live.delete(c.id);
    expect((await call('deleteSandboxConfig', owner, { params: { id: c.id } })).status).toBe(200);
    expect((await call('getSandboxConfig', owner, { params: { id: c.id } })).status).toBe(404);
  });

  it('an inventory that cannot be listed refuses identity changes and delete (409 inventory_unverifiable)', async () => {
    const { json: c } = await call('createSandboxConfig', owner, { body: docker() });
    const off = f.s.sandboxUsage.addInstanceLister(async () => {
      throw new Error('engine unreachable');
    });
    try {
      const r = await call('updateSandboxConfig', owner, { params: { id: c.id }, body: { config: { host: 'unix:///run/other.sock' } } });
      expect(r.json.error.code).toBe('inventory_unverifiable');
      expect((await call('deleteSandboxConfig', owner, { params: { id: c.id } })).json.error.code).toBe('inventory_unverifiable');
      const list = await call('listSandboxConfigs', viewer);
      expect(list.json.items.find((x: { id: string }) => x.id === c.id).instances).toBeNull();
    } finally {
      off();
    }
    expect((await call('deleteSandboxConfig', owner, { params: { id: c.id } })).status).toBe(200);
  });

  it('a concurrent identity edit gets 423 while the first holds the lock', async () => {
    const { json: c } = await call('createSandboxConfig', owner, { body: e2b() });
    const { entered: inside, release } = f.hold();
    const first = call('updateSandboxConfig', owner, {
      params: { id: c.id },
      body: { config: { apiUrl: 'http://127.0.0.1:4100', apiKey: 'e2b_key_for_4100' } },
    });
    await inside;
    const second = await call('updateSandboxConfig', admin2, {
      params: { id: c.id },
      body: { config: { apiUrl: 'http://127.0.0.1:4200', apiKey: 'e2b_key_for_4200' } },
    });
    expect(second.status).toBe(423);
    expect(second.json.error.code).toBe('locked');
    const del = await call('deleteSandboxConfig', admin2, { params: { id: c.id } });
    expect(del.status).toBe(423);
    release();
    const r = await first;
    expect(r.status).toBe(200);
    expect(r.json.config.apiUrl).toBe('http://127.0.0.1:4100');
    expect(r.json.lockedUntil).toBeNull();
  });

  it('creates a config with its env and network rules in one step, values sealed; bad env leaves nothing', async () => {
    const body = {
      ...e2b(),
      name: unique('with-env'),
      env: [
        { name: 'REGION', value: 'eu-2' },
        { name: 'API_TOKEN', value: 'tok-secret-1' },
      ],
    };
    const network = { denyEgressByDefault: true, allowOut: ['10.20.0.0/16'], denyOut: [], cubeRules: [], e2bHostRules: [] };
    const made = await call('createSandboxConfig', owner, { body: { ...body, network } });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    expect(made.json.envCount).toBe(2);
    const env = await loadEnvFor(db(), f.s.secrets, { principal: null, sandboxConfig: { id: made.json.id } });
    expect(env.env).toEqual({ REGION: 'eu-2', API_TOKEN: 'tok-secret-1' });
    const net = await call('getConfigNetwork', owner, { params: { id: made.json.id } });
    expect(net.json.policy).toMatchObject({ denyEgressByDefault: true, allowOut: ['10.20.0.0/16'] });
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.targetId, made.json.id));
    expect((audit.after as { env?: unknown }).env).toEqual({ REGION: '***', API_TOKEN: '***' });
    expect(JSON.stringify(await db().select().from(auditLog))).not.toContain('tok-secret-1');

    for (const bad of [
      [{ name: 'LD_PRELOAD', value: 'x' }],
      [
        { name: 'A', value: '1' },
        { name: 'A', value: '2' },
      ],
    ]) {
      const name = unique('bad-env');
      const refused = await call('createSandboxConfig', owner, { body: { ...e2b(), name, env: bad } });
      expect(refused.status).toBe(400);
      expect((await db().select().from(sandboxConfigs).where(eq(sandboxConfigs.name, name))).length).toBe(0);
    }
  });

  it('clone copies fields, secrets and config env under a new name, and the clone can change identity', async () => {
    const { json: c } = await call('createSandboxConfig', owner, { body: e2b() });
    expect((await call('setConfigEnv', owner, { params: { id: c.id }, body: { name: 'REGION', value: 'eu-1' } })).status).toBe(200);
    f.live.set(c.id, [{ id: 'sbx-2', state: 'paused', createdAt: null }]);
    const clone = await call('cloneSandboxConfig', owner, { params: { id: c.id }, body: { name: unique('clone') } });
    expect(clone.status).toBe(201);
    expect(clone.json).toMatchObject({ backend: 'e2b', enabled: false, envCount: 1, config: { apiKey: '***', domain: 'sandbox.test' } });
    const [row] = await db().select().from(sandboxConfigs).where(eq(sandboxConfigs.id, clone.json.id));
    expect(openSecrets(f.s.secrets, row).apiKey).toBe('e2b_live_secret_value');
    const env = await loadEnvFor(db(), f.s.secrets, { principal: null, sandboxConfig: { id: clone.json.id } });
    expect(env).toEqual({ env: { REGION: 'eu-1' }, sources: { REGION: 'config' } });
    // The stored key goes with the clone but not to a new endpoint: moving it takes the key typed again.
    const kept = await call('updateSandboxConfig', owner, { params: { id: clone.json.id }, body: { config: { apiUrl: 'http://127.0.0.1:4300' } } });
    expect(kept.status).toBe(400);
    const moved = await call('updateSandboxConfig', owner, {
      params: { id: clone.json.id },
      body: { config: { apiUrl: 'http://127.0.0.1:4300', apiKey: 'e2b_key_for_4300' } },
    });
    expect(moved.status).toBe(200);
    const dup = await call('cloneSandboxConfig', owner, { params: { id: c.id }, body: { name: clone.json.name } });
    expect(dup.status).toBe(409);
    f.live.delete(c.id);
  });
});

describe('env vars', () => {
  it('values are sealed and never returned; personal vars override the config level and fall back when removed', async () => {
    const { json: c } = await call('createSandboxConfig', owner, { body: docker() });
    await call('setConfigEnv', owner, { params: { id: c.id }, body: { name: 'TOKEN_X', value: 'workspace-value' } });
    const mine = await call('setMyEnv', owner, { body: { level: 'personal_sandbox', configId: c.id, name: 'TOKEN_X', value: 'my-value' } });
    expect(mine.status).toBe(200);
    const list = await call('listConfigEnv', viewer, { params: { id: c.id } });
    expect(list.json.items).toEqual([expect.objectContaining({ name: 'TOKEN_X', configured: true })]);
    expect(JSON.stringify(list.json)).not.toContain('workspace-value');
    expect(JSON.stringify(await db().select().from(sandboxEnvVars))).not.toContain('my-value');
    const req = { principal: { id: f.ownerId }, sandboxConfig: { id: c.id } };
    expect(await loadEnvFor(db(), f.s.secrets, req)).toEqual({ env: { TOKEN_X: 'my-value' }, sources: { TOKEN_X: 'personal_sandbox' } });
    expect((await call('unsetMyEnv', owner, { body: { level: 'personal_sandbox', configId: c.id, name: 'TOKEN_X' } })).status).toBe(200);
    expect(await loadEnvFor(db(), f.s.secrets, req)).toEqual({ env: { TOKEN_X: 'workspace-value' }, sources: { TOKEN_X: 'config' } });
    expect((await call('unsetMyEnv', owner, { body: { level: 'personal_sandbox', configId: c.id, name: 'TOKEN_X' } })).status).toBe(404);
    expect((await call('setMyEnv', viewer, { body: { level: 'personal_skill', skillKey: 'weather', name: 'A', value: '1' } })).status).toBe(403);
  });
});
