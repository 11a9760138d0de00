// test-phase: pglite only. What it proves is OpenClaw's own reading of what Skilldock wrote;
// the gateway store it writes through runs on both engines in the doors tests.
// A gateway reached only through its RPC, connected through the routes and synced by the job: a
// skill's apiKey goes into the gateway's own secret store (secrets.store.set) with a `store`
// SecretRef in the config, OpenClaw resolves it and calls the key-gated skill eligible; a second
// sync sets nothing again; a key removed in Skilldock leaves the config and the store; the key is
// in no diff, job result, job log, audit row or config file.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import JSON5 from 'json5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUT as entryRoute } from '@/app/api/v1/skills/entry/route';
import { auditLog, jobLogs } from '@/db/schema';
import { setServices } from '@/lib/services';
import { apiUser, jobEnd } from '@/test/helpers/api';
import { type GatewaysClient, gatewaysClient, type Json } from '@/test/helpers/gateways-api';
import { ensureOpenClaw, makeOpenClawState, type OpenClaw, type OpenClawGateway, runOpenClaw, startOpenClawGateway } from '@/test/helpers/openclaw';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { skillMd, skillsClient } from '@/test/helpers/skills-api';
import { storeSecretName } from './plan';
import { RemoteOpenClawAccess } from './remote-access';

const TOKEN = `skilldock-remote-${randomBytes(6).toString('hex')}`;
const KEY = `sk-remote-${randomBytes(12).toString('hex')}`;
const NAME = storeSecretName('gem');
const REF = { source: 'store', provider: 'default', id: NAME };

describe('apiKeys for a gateway reached through its RPC', () => {
  let oc: OpenClaw;
  let gateway: OpenClawGateway;
  let root: string;
  let stateDir: string;
  let home: string;
  let access: RemoteOpenClawAccess;
  let ts: TestServices;
  let gw: GatewaysClient;
  let skills: ReturnType<typeof skillsClient>;
  let id = '';

  const gem = async () => {
    const [a1] = await access.agentSkills(['a1']);
    return a1?.skills.find((s) => s.name === 'gem');
  };
  const sync = async () => {
    const r = await gw.sync(id);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const job = await jobEnd(ts.services, r.body.jobId, 120_000);
    expect(job.state, job.error ? JSON.stringify(job.error) : '').toBe('succeeded');
    return job.result as Json;
  };
  const storeNames = async (): Promise<string[]> => {
    const r = await runOpenClaw(oc, ['secrets', 'store', 'list', '--json'], { stateDir, home });
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const out = JSON.parse(r.stdout) as Json;
    return ((Array.isArray(out) ? out : out.entries) as Json[]).map((e) => e.name as string);
  };

  beforeAll(async () => {
    oc = await ensureOpenClaw();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-oc-remote-'));
    stateDir = path.join(root, 'state');
    home = path.join(root, 'home');
    fs.mkdirSync(home);
    const meta = { openclaw: { primaryEnv: 'GEM_API_KEY', requires: { env: ['GEM_API_KEY'] } } };
    makeOpenClawState(stateDir, `{ agents: { entries: { a1: { workspace: ${JSON.stringify(path.join(root, 'ws-a1'))} } } } }`, {
      gem: skillMd('gem', 'Needs its API key.', { metadata: meta }),
    });
    gateway = await startOpenClawGateway(oc, { stateDir, home, token: TOKEN });
    access = new RemoteOpenClawAccess(gateway.url, TOKEN);

    ts = await startTestServices({ env: { SKILLDOCK_GATEWAY_POLL_MS: '60000' } });
    setServices(Promise.resolve(ts.services));
    const { token } = await apiUser(ts.services, {
      email: 'gw-remote@example.com',
      role: 'admin',
      tokenName: 'gw',
      permissions: ['agents.read', 'agents.write', 'skills.read', 'skills.write', 'gateways.read', 'gateways.write', 'jobs.read'],
    });
    gw = gatewaysClient(token);
    skills = skillsClient(ts.services, token);
    const created = await gw.create({ name: 'remote', kind: 'openclaw', location: { type: 'remote', url: gateway.url, token: TOKEN }, autoSync: false });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    id = created.body.id;
    const adopted = await gw.adopt(id);
    expect(adopted.status, JSON.stringify(adopted.body)).toBe(200);
    // Without a key the skill is not eligible: the gate is real.
    expect(await gem()).toMatchObject({ eligible: false, missing: { env: ['GEM_API_KEY'] } });
    const put = await skills.send(entryRoute as never, 'PUT', '/api/v1/skills/entry', { body: { skillKey: 'gem', apiKey: KEY } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
  }, 300_000);

  afterAll(async () => {
    await access?.close();
    await ts?.stop();
    await gateway?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it("shows the apiKey as a reference into the gateway's store in the diff, never the key", async () => {
    const plan = await gw.plan(id);
    expect(plan.body.dryRun, JSON.stringify(plan.body)).toBe(true);
    expect(plan.body.configChanges).toContain(`skills.entries.gem.apiKey: (absent) → ${JSON.stringify(REF)}`);
    expect(plan.body.notes.join('\n')).not.toMatch(/not delivered/);
    expect(JSON.stringify(plan.body)).not.toContain(KEY);
  });

  it("stores the key in the gateway's secret store: OpenClaw resolves the ref and calls the skill eligible", async () => {
    const result = await sync();
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(await gem()).toMatchObject({ eligible: true, modelVisible: true, missing: { env: [] } });
    // The RPC redacts every SecretRef id it returns: the file on the gateway host names the entry.
    const file = fs.readFileSync(path.join(stateDir, 'openclaw.json'), 'utf8');
    expect(JSON5.parse(file).skills.entries.gem.apiKey).toEqual(REF);
    expect(file).not.toContain(KEY);
    expect(await storeNames()).toContain(NAME);
  }, 180_000);

  it('sets nothing again on a second sync, and a changed key is set again', async () => {
    expect((await sync()).changes).toBe(0);
    const put = await skills.send(entryRoute as never, 'PUT', '/api/v1/skills/entry', { body: { skillKey: 'gem', apiKey: `${KEY}-2` } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await sync()).changes).toBe(1);
    expect(await gem()).toMatchObject({ eligible: true });
  }, 180_000);

  it('takes a key removed in Skilldock out of the config and the store', async () => {
    const put = await skills.send(entryRoute as never, 'PUT', '/api/v1/skills/entry', { body: { skillKey: 'gem', apiKey: '' } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await sync();
    expect(((await access.readConfig()).value as Json).skills?.entries?.gem?.apiKey).toBeUndefined();
    expect(await storeNames()).not.toContain(NAME);
    expect(await gem()).toMatchObject({ eligible: false, missing: { env: ['GEM_API_KEY'] } });
  }, 180_000);

  it('never writes the key into a job log or an audit row', async () => {
    const db = ts.services.database.db;
    const logs = await db.select().from(jobLogs);
    expect(logs.some((l) => l.line.includes(`stored an apiKey in the gateway's secret store as ${NAME}`))).toBe(true);
    expect(logs.some((l) => l.line.includes(`removed ${NAME} from the gateway's secret store`))).toBe(true);
    expect(logs.filter((l) => l.line.includes(KEY))).toEqual([]);
    const audits = await db.select().from(auditLog);
    expect(audits.length).toBeGreaterThan(0);
    expect(audits.filter((a) => JSON.stringify(a).includes(KEY))).toEqual([]);
  });
});
