// The folder kind's status: `skilldock sync` (the real command, a child process) reports itself with
// each request, and the console lists every client with where it runs, how it follows and whether it
// holds the agent's current skills; a malformed report is refused; forgetting one is audited.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETE as forgetRoute } from '@/app/api/v1/folder-clients/[agentId]/[clientId]/route';
import { GET as listRoute } from '@/app/api/v1/folder-clients/route';
import { createToken } from '@/lib/auth/tokens';
import { agentsClient } from '@/test/helpers/agents-api';
import { type AgentsSetup, startAgentsSetup } from '@/test/helpers/agents-setup';
import { apiUser } from '@/test/helpers/api';
import { type GatewayHttp, startGatewayHttp } from '@/test/helpers/gateway-http';
import { waitFor } from '@/test/helpers/services';
import { auditRows } from '@/test/helpers/skills-api';
import { CLIENT_HEADER } from './client-header';

const BIN = path.resolve('bin/skilldock.mjs');
let t: AgentsSetup;
let gw: GatewayHttp;
let token: string;
let viewer: ReturnType<typeof agentsClient>;
let operator: ReturnType<typeof agentsClient>;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  t = await startAgentsSetup('folder-clients');
  for (const n of ['alpha', 'beta', 'gamma']) t.write(n, `The ${n} skill.`);
  await t.refresh();
  expect((await t.api.create({ id: 'mirror', name: 'Mirror', skills: ['alpha'] })).status).toBe(201);
  const { actor } = await apiUser(t.ts.services, { email: 'fc-admin@example.com', role: 'admin', tokenName: 'x', permissions: ['agents.read'] });
  token = (await createToken(t.ts.services.database.db, actor, { name: 'mirror-sync', permissions: ['agents.read'], expiresInDays: 1, agentIds: ['mirror'] }))
    .token;
  const v = await apiUser(t.ts.services, { email: 'fc-viewer@example.com', role: 'viewer', tokenName: 'viewer', permissions: ['gateways.read'] });
  viewer = agentsClient(v.token);
  const o = await apiUser(t.ts.services, {
    email: 'fc-operator@example.com',
    role: 'admin',
    tokenName: 'operator',
    permissions: ['gateways.read', 'gateways.write'],
  });
  operator = agentsClient(o.token);
  gw = await startGatewayHttp();
}, 180_000);
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await gw?.close();
  await t?.stop();
});

function run(args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [BIN, 'sync', '--url', gw.url, '--agent', 'mirror', '--token', token, ...args], { stdio: 'ignore' });
    c.on('exit', resolve);
  });
}

type Client = {
  agentId: string;
  clientId: string;
  host: string;
  dir: string;
  mode: string;
  status: string;
  summary: string;
  version: string | null;
  via: string;
  blocked: number;
};
async function clients(as = viewer): Promise<Client[]> {
  const r = await as.send(listRoute, 'GET', '/api/v1/folder-clients?agentId=mirror');
  expect(r.status).toBe(200);
  return r.body.clients;
}
const byDir = async (dir: string) => (await clients()).find((c) => c.dir === dir);

async function setSkills(skills: string[]) {
  const cur = await t.api.get('mirror');
  expect((await t.api.patch('mirror', { revision: cur.body.revision, skills })).status).toBe(200);
}

describe('folder clients', () => {
  it('lists a --once run with its host, folder and token, in step; behind once the agent changes', async () => {
    const dir = fs.mkdtempSync(path.join(t.tmp, 'once-'));
    expect(await run(['--dir', dir, '--once'])).toBe(0);
    const c = await byDir(dir);
    expect(c).toMatchObject({
      agentId: 'mirror',
      host: os.hostname(),
      mode: 'once',
      status: 'in-step',
      via: expect.stringContaining('mirror-sync'),
      blocked: 0,
    });
    expect(c?.clientId).toMatch(/^[a-f0-9]{32}$/);
    await setSkills(['alpha', 'beta']);
    expect(await byDir(dir)).toMatchObject({ status: 'behind', summary: expect.stringContaining('run it again') });
    // The same folder is the same client: a second run updates its row, it does not add one.
    expect(await run(['--dir', dir, '--once'])).toBe(0);
    expect((await clients()).filter((x) => x.dir === dir)).toHaveLength(1);
    expect(await byDir(dir)).toMatchObject({ status: 'in-step' });
  }, 120_000);

  it('reports a pass that a foreign folder blocked', async () => {
    const dir = fs.mkdtempSync(path.join(t.tmp, 'blocked-'));
    fs.mkdirSync(path.join(dir, 'beta'));
    fs.writeFileSync(path.join(dir, 'beta', 'SKILL.md'), 'not written by Skilldock');
    expect(await run(['--dir', dir, '--once'])).toBe(6);
    expect(await byDir(dir)).toMatchObject({ status: 'blocked', blocked: 1, summary: expect.stringContaining('could not write 1 skill') });
  }, 120_000);

  it('a follower on the event stream is listed as following events and stays in step across a change', async () => {
    const dir = fs.mkdtempSync(path.join(t.tmp, 'follow-'));
    const c = spawn(process.execPath, [BIN, 'sync', '--url', gw.url, '--agent', 'mirror', '--token', token, '--dir', dir], { stdio: 'ignore' });
    children.add(c);
    await waitFor(async () => (await byDir(dir))?.mode === 'events' && fs.existsSync(path.join(dir, 'beta')), 'the follower listed on events', 60_000);
    await setSkills(['alpha', 'beta', 'gamma']);
    await waitFor(async () => fs.existsSync(path.join(dir, 'gamma')), 'gamma in the folder', 60_000);
    const current = (await t.api.skills('mirror')).headers.get('etag');
    await waitFor(async () => (await byDir(dir))?.status === 'in-step', 'the follower in step', 60_000);
    expect(current).toContain(String((await byDir(dir))?.version));
    c.kill('SIGTERM');
    // No heartbeat for longer than a follower's window: listed as silent.
    await t.ts.services.database.db.execute(sql`update folder_clients set last_seen_at = now() - interval '10 minutes' where dir = ${dir}`);
    expect(await byDir(dir)).toMatchObject({ status: 'silent', summary: expect.stringContaining('Not heard from for 10 min') });
  }, 120_000);

  it('refuses a malformed client report with 400 naming the header', async () => {
    for (const bad of [
      'id=xyz; host=h; dir=/d; mode=once; poll=1; blocked=0',
      'id=0123456789abcdef; host=h; dir=/d; mode=sideways; poll=1; blocked=0',
      'garbage',
    ]) {
      const r = await t.api.send((await import('@/app/api/v1/agents/[id]/skills/route')).GET, 'GET', '/api/v1/agents/mirror/skills', {
        params: { id: 'mirror' },
        headers: { [CLIENT_HEADER]: bad },
      });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain(CLIENT_HEADER);
    }
  });

  it('a viewer may list but not forget; an admin forgets a client, audited, and it is gone', async () => {
    const [c] = await clients();
    const params = { agentId: 'mirror', clientId: (c as Client).clientId };
    const url = `/api/v1/folder-clients/mirror/${params.clientId}`;
    expect((await viewer.send(forgetRoute, 'DELETE', url, { params })).status).toBe(403);
    expect((await operator.send(forgetRoute, 'DELETE', url, { params })).status).toBe(200);
    expect((await clients()).some((x) => x.clientId === params.clientId)).toBe(false);
    expect((await auditRows(t.ts.services, 'gateway.folder_client.forget')).length).toBe(1);
    expect((await operator.send(forgetRoute, 'DELETE', url, { params })).status).toBe(404);
  });

  it("an agent's clients go with the agent", async () => {
    expect((await clients()).length).toBeGreaterThan(0);
    expect((await t.api.remove('mirror')).status).toBe(200);
    expect(await clients()).toEqual([]);
  });
});
