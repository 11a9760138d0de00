// test-phase: pglite only. What it proves is OpenClaw's own reading of what Skilldock wrote;
// the gateway store it writes through runs on both engines in the doors tests.
// A real OpenClaw in a container running as `nobody`, connected through the routes and synced by
// the job: a skill's apiKey reaches it through the secrets file Skilldock writes with the archive
// API, OpenClaw itself resolves the SecretRef and calls the key-gated skill eligible, and the key
// is in no diff, job result, job log or audit row.
import { randomBytes } from 'node:crypto';
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PUT as entryRoute } from '@/app/api/v1/skills/entry/route';
import { auditLog, jobLogs } from '@/db/schema';
import { buildTar } from '@/lib/sandbox/docker/tar';
import { setServices } from '@/lib/services';
import { apiUser, jobEnd } from '@/test/helpers/api';
import { describeDocker } from '@/test/helpers/docker';
import { type GatewaysClient, gatewaysClient, type Json } from '@/test/helpers/gateways-api';
import { ensureOpenClawImage } from '@/test/helpers/openclaw-image';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { skillMd, skillsClient } from '@/test/helpers/skills-api';
import { zipSkill } from '@/test/helpers/skills-archives';
import { DockerOpenClawAccess, gatewayDocker } from './docker-access';
import { execInContainer } from './docker-exec';
import { readContainerFile, statContainerPath } from './docker-files';
import { SECRETS_TEMP } from './docker-secrets';

const RUN = randomBytes(6).toString('hex');
const LABELS = { 'io.skilldock.test-run': RUN };
const STATE = '/tmp/oc-nobody';
const KEY = `sk-test-${randomBytes(12).toString('hex')}`;
const CONFIG = '{ agents: { entries: { a1: {} } }, channels: { telegram: { enabled: false } } }\n';
const NOBODY = 65534;

describeDocker('apiKeys for an OpenClaw gateway in a container running as nobody', () => {
  const docker = new Docker();
  let ts: TestServices;
  let gw: GatewaysClient;
  let container = '';
  let access: DockerOpenClawAccess;
  let id = '';
  let skills: ReturnType<typeof skillsClient>;

  const cli = async (args: string[]) => {
    const r = await access.cli(args);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Json;
  };
  const gem = async () => ((await cli(['skills', 'list', '--agent', 'a1', '--json'])).skills as Json[]).find((s) => s.name === 'gem');
  const sync = async () => {
    const r = await gw.sync(id);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const job = await jobEnd(ts.services, r.body.jobId, 180_000);
    expect(job.state, job.error ? JSON.stringify(job.error) : '').toBe('succeeded');
    return job;
  };

  beforeAll(async () => {
    const image = await ensureOpenClawImage(docker, LABELS);
    const c = await docker.createContainer({
      Image: image,
      Cmd: ['/bin/sleep', 'infinity'],
      Labels: LABELS,
      User: 'nobody',
      Env: ['HOME=/tmp'],
      NetworkDisabled: true,
    });
    await c.start();
    container = c.id;
    await c.putArchive(
      buildTar([
        { type: 'dir', name: 'oc-nobody', mode: 0o700 },
        { type: 'file', name: 'oc-nobody/openclaw.json', data: Buffer.from(CONFIG), mode: 0o600 },
      ]),
      { path: '/tmp', copyUIDGID: true },
    );
    access = new DockerOpenClawAccess({ type: 'docker', container, stateDir: STATE }, docker);

    ts = await startTestServices({ env: { SKILLDOCK_GATEWAY_POLL_MS: '60000', ...(process.env.DOCKER_HOST ? { DOCKER_HOST: process.env.DOCKER_HOST } : {}) } });
    setServices(Promise.resolve(ts.services));
    const { token } = await apiUser(ts.services, {
      email: 'gw-docker@example.com',
      role: 'admin',
      tokenName: 'gw',
      permissions: ['agents.read', 'agents.write', 'skills.read', 'skills.write', 'gateways.read', 'gateways.write', 'jobs.read'],
    });
    gw = gatewaysClient(token);
    skills = skillsClient(ts.services, token);
    const meta = { openclaw: { primaryEnv: 'GEM_API_KEY', requires: { env: ['GEM_API_KEY'] } } };
    const job = await skills.importArchive(zipSkill('gem', { 'SKILL.md': skillMd('gem', 'Needs its API key.', { metadata: meta }) }));
    expect(job.state, JSON.stringify(job.error)).toBe('succeeded');

    const created = await gw.create({ name: 'docker', kind: 'openclaw', location: { type: 'docker', container, stateDir: STATE }, autoSync: false });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    id = created.body.id;
    const adopted = await gw.adopt(id);
    expect(adopted.status, JSON.stringify(adopted.body)).toBe(200);
    await sync();
    // Without a key in Skilldock the skill is written but not eligible: the gate is real.
    expect(await gem()).toMatchObject({ eligible: false, missing: { env: ['GEM_API_KEY'] } });
    const put = await skills.send(entryRoute as never, 'PUT', '/api/v1/skills/entry', { body: { skillKey: 'gem', apiKey: KEY } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
  }, 900_000);

  afterAll(async () => {
    await ts?.stop();
    for (const c of await docker.listContainers({ all: true, filters: { label: [`io.skilldock.test-run=${RUN}`] } }))
      await docker
        .getContainer(c.Id)
        .remove({ force: true })
        .catch(() => {});
  });

  it('shows the apiKey as a SecretRef in the diff, never the key', async () => {
    const plan = await gw.plan(id);
    expect(plan.body.dryRun, JSON.stringify(plan.body)).toBe(true);
    expect(plan.body.configChanges).toContain('skills.entries.gem.apiKey: (absent) → {"source":"file","provider":"skilldock","id":"/skills/gem/apiKey"}');
    expect(plan.body.notes.join('\n')).not.toMatch(/not delivered/);
    expect(JSON.stringify(plan.body)).not.toContain(KEY);
  });

  it('syncs the key through the secrets file: OpenClaw resolves the ref and calls the skill eligible', async () => {
    const job = await sync();
    expect(JSON.stringify(job.result)).not.toContain(KEY);
    expect(await gem()).toMatchObject({ eligible: true, modelVisible: true, missing: { env: [] } });
    const cfg = (await access.readConfig()).value as Json;
    expect(cfg.skills.entries.gem.apiKey).toEqual({ source: 'file', provider: 'skilldock', id: '/skills/gem/apiKey' });
    expect(cfg.secrets.providers.skilldock).toMatchObject({ source: 'file', path: `${STATE}/skilldock-secrets.json` });
    // OpenClaw's own audit resolves every ref as the gateway's user: it refuses a file that is not that user's private file.
    const audit = await cli(['secrets', 'audit', '--json']);
    expect(audit).toMatchObject({ status: 'clean', summary: { unresolvedRefCount: 0, plaintextCount: 0 } });
    expect(audit.resolution.refsChecked).toBeGreaterThanOrEqual(1);
  }, 240_000);

  it('leaves the secrets file mode 0600, owned by the gateway user, one link, no temporary file', async () => {
    const d = gatewayDocker(docker);
    expect(await statContainerPath(d, container, `${STATE}/skilldock-secrets.json`)).toMatchObject({ type: 'file', mode: 0o600, uid: NOBODY, gid: NOBODY });
    expect(await statContainerPath(d, container, `${STATE}/${SECRETS_TEMP}`)).toBeNull();
    const st = await execInContainer(d, container, {
      argv: ['/usr/bin/stat', '-c', '%U %a %h', `${STATE}/skilldock-secrets.json`],
      timeoutMs: 10_000,
      maxOutputBytes: 1024,
    });
    expect(st.stdout.trim()).toBe('nobody 600 1');
  });

  it('reports no drift for the secrets file, and a second sync has nothing to do', async () => {
    const drift = await gw.drift(id);
    expect(drift.status, JSON.stringify(drift.body)).toBe(200);
    expect(drift.body.pending).toEqual([]);
    expect(drift.body.agents).toEqual([{ agentId: 'a1', inSync: true, differences: [] }]);
    const again = await sync();
    expect((again.result as Json).changes).toBe(0);
  }, 240_000);

  it('takes a key removed in Skilldock out of the config and the secrets file', async () => {
    const put = await skills.send(entryRoute as never, 'PUT', '/api/v1/skills/entry', { body: { skillKey: 'gem', apiKey: '' } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await sync();
    expect(((await access.readConfig()).value as Json).skills.entries.gem?.apiKey).toBeUndefined();
    const file = (await readContainerFile(gatewayDocker(docker), container, `${STATE}/skilldock-secrets.json`, 1 << 20))?.toString('utf8');
    expect(JSON.parse(file ?? 'null')).toEqual({ skills: {} });
    expect(await gem()).toMatchObject({ eligible: false, missing: { env: ['GEM_API_KEY'] } });
  }, 240_000);

  it('never writes the key into a job log or an audit row', async () => {
    const db = ts.services.database.db;
    const logs = await db.select().from(jobLogs);
    expect(logs.some((l) => l.line.includes('wrote the secrets file skilldock-secrets.json'))).toBe(true);
    expect(logs.filter((l) => l.line.includes(KEY))).toEqual([]);
    const audits = await db.select().from(auditLog);
    expect(audits.length).toBeGreaterThan(0);
    expect(audits.filter((a) => JSON.stringify(a).includes(KEY))).toEqual([]);
  });
});
