// Two service instances (two replicas, each with its own data dir) on one PostgreSQL database: a
// change made through one is served by the other once its notice is processed, and both answer the
// gateway with the same ETag for the same state. Two replicas cannot share one
// PGlite, so it runs on PostgreSQL.
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpName, ops } from '@/lib/api/operations';
import { ROLE_PERMISSIONS } from '@/lib/auth';
import type { Actor } from '@/lib/auth/actor';
import { createToken } from '@/lib/auth/tokens';
import { loadConfig } from '@/lib/core/config';
import { route } from '@/lib/http/route';
import { type Services, setServices, startServices } from '@/lib/services';
import { apiUser } from '@/test/helpers/api';
import { freshPostgresDatabase, type TestDatabase } from '@/test/helpers/db';
import { stopTestReplica, waitFor } from '@/test/helpers/services';
import { skillMd, writeSkill } from '@/test/helpers/skills-api';

let tdb: TestDatabase;
let tmp: string;
let a: Services;
let b: Services;
let token: string;
let owner: Actor;

async function replica(name: string): Promise<Services> {
  const dataDir = path.join(tmp, name);
  const config = loadConfig({
    SKILLDOCK_DATA_DIR: dataDir,
    DATABASE_URL: tdb.url!,
    LOG_LEVEL: 'warn',
    SKILLDOCK_NFT_TABLE: `skilldock_inv_${name}_${process.pid}`,
    SKILLDOCK_DNS_UPSTREAMS: '127.0.0.1:9',
  });
  return startServices({ config, worker: false });
}

// Response bodies are checked field by field.
type Json = any;

/** Calls an operation through its route on replica `s`, as a load balancer would have sent it there. */
async function call(
  s: Services,
  name: OpName,
  opts: { params?: Record<string, string>; body?: unknown; headers?: Record<string, string>; token?: string } = {},
): Promise<{ status: number; json: Json; headers: Headers }> {
  setServices(Promise.resolve(s));
  const c = ops[name].contract;
  let url = c.path;
  for (const [k, v] of Object.entries(opts.params ?? {})) url = url.replace(`{${k}}`, encodeURIComponent(v));
  const res = await route(ops[name] as never)(
    new Request(`http://localhost${url}`, {
      method: c.method,
      headers: { authorization: `Bearer ${opts.token ?? token}`, 'content-type': 'application/json', ...opts.headers },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    }),
    { params: Promise.resolve(opts.params ?? {}) },
  );
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null, headers: res.headers };
}

const names = async (s: Services, agent: string): Promise<string[]> => {
  const r = await call(s, 'agentSkills', { params: { id: agent } });
  expect(r.status).toBe(200);
  return r.json.skills.map((k: { name: string }) => k.name);
};

beforeAll(async () => {
  tdb = await freshPostgresDatabase();
  tmp = await mkdtemp(path.join(process.env.SKILLDOCK_TEST_TMPDIR || os.tmpdir(), 'skilldock-inv-'));
  a = await replica('a');
  b = await replica('b');
  ({ token, actor: owner } = await apiUser(a, { email: 'inv-owner@example.com', role: 'owner', tokenName: 'inv', permissions: [...ROLE_PERMISSIONS.owner] }));
  const ws = path.join(tmp, 'ws');
  const root = path.join(ws, 'skills');
  fs.mkdirSync(root, { recursive: true });
  for (const n of ['alpha', 'beta']) writeSkill(root, n, { 'SKILL.md': skillMd(n, `The ${n} skill.`) });
  expect((await call(a, 'updateSkillsSettings', { body: { workspaceDir: ws, personalDir: path.join(tmp, 'personal') } })).status).toBe(200);
  expect((await call(a, 'createAgent', { body: { id: 'gw', name: 'Gateway', skills: ['alpha', 'beta'] } })).status).toBe(201);
}, 120_000);

afterAll(async () => {
  for (const s of [b, a]) if (s) await stopTestReplica(s);
  await tdb?.cleanup();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('changes through one replica are served by the other', () => {
  it('both replicas answer the gateway with the same body and ETag for the same state', async () => {
    const [ra, rb] = [await call(a, 'agentSkills', { params: { id: 'gw' } }), await call(b, 'agentSkills', { params: { id: 'gw' } })];
    expect(ra.json.skills.map((k: { name: string }) => k.name)).toEqual(['alpha', 'beta']);
    expect(rb.headers.get('etag')).toBe(ra.headers.get('etag'));
    // A poll carrying A's ETag is answered 304 by B.
    const again = await call(b, 'agentSkills', { params: { id: 'gw' }, headers: { 'if-none-match': ra.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('a skill disabled through A is no longer served by B', async () => {
    expect(await names(b, 'gw')).toEqual(['alpha', 'beta']);
    expect((await call(a, 'updateSkillEntry', { body: { skillKey: 'beta', enabled: false } })).status).toBe(200);
    // Through A at once: the replica that made the change never serves the old state.
    expect(await names(a, 'gw')).toEqual(['alpha']);
    await waitFor(async () => (await names(b, 'gw')).join() === 'alpha', 'B to drop the disabled skill', 8_000);
    const [ra, rb] = [await call(a, 'agentSkills', { params: { id: 'gw' } }), await call(b, 'agentSkills', { params: { id: 'gw' } })];
    expect(rb.headers.get('etag')).toBe(ra.headers.get('etag'));
    expect((await call(a, 'updateSkillEntry', { body: { skillKey: 'beta', enabled: true } })).status).toBe(200);
    await waitFor(async () => (await names(b, 'gw')).join() === 'alpha,beta', 'B to serve the enabled skill again', 8_000);
  });

  it("an agent's allowlist changed through A is served by B", async () => {
    const now = await call(a, 'getAgent', { params: { id: 'gw' } });
    expect((await call(a, 'updateAgent', { params: { id: 'gw' }, body: { revision: now.json.revision, skills: ['beta'] } })).status).toBe(200);
    await waitFor(async () => (await names(b, 'gw')).join() === 'beta', 'B to serve the new allowlist', 8_000);
  });

  it("a profile tightened through A is enforced by B's exec decision", async () => {
    const cfg = await call(a, 'createSandboxConfig', { body: { name: 'inv-sbx', backend: 'docker', config: { image: 'busybox:1.36' } } });
    expect(cfg.status).toBe(201);
    expect((await call(a, 'createProfile', { body: { name: 'team', rules: { approvalForMedium: true } } })).status).toBe(201);
    const agent = { id: 'runner', name: 'Runner', sandboxConfigId: cfg.json.id, riskProfile: 'team' };
    expect((await call(a, 'createAgent', { body: agent })).status).toBe(201);
    const gw = await createToken(a.database.db, owner, { name: 'runner', permissions: ['agents.read', 'agents.exec'], expiresInDays: 1, agentIds: ['runner'] });
    const exec = (s: Services) => call(s, 'agentExec', { params: { id: 'runner' }, body: { command: 'mkdir /tmp/x' }, token: gw.token });
    const settings = await call(a, 'policySettings');
    expect((await call(a, 'updatePolicySettings', { body: { ...settings.json, approvalMode: '202' } })).status).toBe(200);
    // Medium risk asks for an approval (answered at once in mode 202; nothing starts a sandbox).
    const before = await exec(b);
    expect(before.json).toMatchObject({ decision: 'approval', outcome: 'pending' });
    const p = await call(a, 'getProfile', { params: { name: 'team' } });
    const tightened = await call(a, 'updateProfile', {
      params: { name: 'team' },
      body: { revision: p.json.revision, rules: { approvalForMedium: true, allowedCommands: ['ls'] } },
    });
    expect(tightened.status).toBe(200);
    const after = await exec(b);
    expect(after.json).toMatchObject({ decision: 'deny', outcome: 'denied' });
  });
});
