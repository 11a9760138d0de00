// The skill install API beyond one config: one skill into several configs as one parent job (a
// Docker config and an E2B config from the loopback server, each the way its backend keeps skills,
// an unknown config refused alongside), the image rebuild as a job, and the rebuild refused for a
// config that has no image.
import Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as rebuildRoute from '@/app/api/v1/sandbox-configs/[id]/image/rebuild/route';
import * as imageRoute from '@/app/api/v1/sandbox-configs/[id]/image/route';
import * as intoConfigs from '@/app/api/v1/skill-installs/[skillKey]/route';
import { jobs } from '@/db/schema';
import { setServices } from '@/lib/services';
import { apiUser, jobEnd } from '@/test/helpers/api';
import { describeDocker } from '@/test/helpers/docker';
import { type E2bServer, serverContainers, startE2bServer } from '@/test/helpers/e2b-server';
import { echoSkill, type InstallKit, startInstallKit } from '@/test/helpers/install-jobs';
import type { Json } from '@/test/helpers/skills-api';
import { imageRebuildJob } from './jobs/kinds';
import * as store from './records/store';

type Handler = (req: Request, args?: { params?: Promise<Record<string, string>> }) => Promise<Response>;

describeDocker('skill install API across configs', () => {
  const docker = new Docker();
  let kit: InstallKit;
  let server: E2bServer;
  let admin = '';
  let dockerCfg = '';
  let e2bCfg = '';
  const db = () => kit.ts.services.database.db;

  async function call(h: Handler, url: string, params: Record<string, string>, body?: unknown) {
    const res = await h(
      new Request(`http://localhost${url}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${admin}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      { params: Promise.resolve(params) },
    );
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as Json };
  }

  beforeAll(async () => {
    kit = await startInstallKit();
    server = await startE2bServer({ docker, flavor: 'e2b', templates: ['skilldock-test'] });
    setServices(Promise.resolve(kit.ts.services));
    const s = kit.ts.services;
    admin = (
      await apiUser(s, {
        email: 'fanout-admin@example.test',
        role: 'admin',
        tokenName: 'fanout',
        permissions: ['sandboxes.read', 'sandboxes.write', 'skills.read', 'skills.write'],
      })
    ).token;
    dockerCfg = await kit.newConfig('fanout-docker');
    e2bCfg = await kit.newE2bConfig('fanout-e2b', server);
    await kit.storeSkill('greet', echoSkill('greet'));
  }, 180_000);

  afterAll(async () => {
    await kit?.stop();
    await server?.close();
    expect(await serverContainers(docker, server)).toEqual([]);
  });

  it('installs one skill into a Docker and an E2B config under one parent job, refusing an unknown config', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const r = await call(
      intoConfigs.POST,
      '/api/v1/skill-installs/greet',
      { skillKey: 'greet' },
      { configIds: [dockerCfg, e2bCfg, missing], notes: 'fan out' },
    );
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body.installs.map((i: Json) => i.configId).sort()).toEqual([dockerCfg, e2bCfg].sort());
    expect(r.body.errors).toEqual([expect.objectContaining({ target: missing, code: 'not_found' })]);
    expect((await jobEnd(kit.ts.services, r.body.jobId)).state).toBe('succeeded');

    const listed = await call(intoConfigs.GET, '/api/v1/skill-installs/greet', { skillKey: 'greet' });
    expect(listed.status).toBe(200);
    const states = Object.fromEntries((listed.body.items ?? listed.body).map((i: Json) => [i.configId, [i.state, i.notes]]));
    expect(states).toEqual({ [dockerCfg]: ['ready', 'fan out'], [e2bCfg]: ['ready', 'fan out'] });
    expect((await kit.runIn(dockerCfg, ['sh', '/opt/skilldock/skills/greet/run.sh', 'docker'])).stdout).toBe('greet says docker\n');
    expect((await kit.runIn(e2bCfg, ['sh', '/opt/skilldock/skills/greet/run.sh', 'e2b'])).stdout).toBe('greet says e2b\n');

    const e2bImage = await call(imageRoute.GET as Handler, `/api/v1/sandbox-configs/${e2bCfg}/image`, { id: e2bCfg });
    expect(e2bImage.body).toMatchObject({
      health: { state: 'bundle' },
      active: { generation: 1, layers: null },
      // A bundle shares nothing with another: its recorded size is its disk use.
      disk: { source: 'records', generations: 1, bytes: e2bImage.body.active.sizeBytes ?? 0, baseBytes: 0, exact: true, error: null },
    });
  });

  it('rebuilds a Docker config image as a job; a bundle config has no image to rebuild (409, nothing queued)', async () => {
    const before = (await store.activeImage(db(), dockerCfg))!.generation;
    const r = await call(rebuildRoute.POST, `/api/v1/sandbox-configs/${dockerCfg}/image/rebuild`, { id: dockerCfg }, { reason: 'test' });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect((await jobEnd(kit.ts.services, r.body.jobId ?? r.body.id)).state).toBe('succeeded');
    const after = (await store.activeImage(db(), dockerCfg))!;
    expect(after.generation).toBe(before + 1);
    expect(after.skills.map((s) => s.skillKey)).toEqual(['greet']);

    const rebuildJobs = async () => (await db().select().from(jobs).where(eq(jobs.kind, imageRebuildJob.name))).length;
    const queuedBefore = await rebuildJobs();
    const refused = await call(rebuildRoute.POST, `/api/v1/sandbox-configs/${e2bCfg}/image/rebuild`, { id: e2bCfg }, {});
    expect(await rebuildJobs()).toBe(queuedBefore);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('no image to rebuild');
    expect((await store.activeImage(db(), e2bCfg))!.generation).toBe(1);
  });
});
