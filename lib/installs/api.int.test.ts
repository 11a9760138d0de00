// The skill install API on a real engine with the offline busybox image, through both doors: REST
// with API tokens and the server action with a session. Installs run as real jobs; refusals are
// checked to write nothing; the catalog's delete guard and "updatable" are driven by real imports.
import fs from 'node:fs';
import path from 'node:path';
import { count, like } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as bulkRoute from '@/app/api/v1/sandbox-configs/[id]/bulk-install/route';
import * as imageRoute from '@/app/api/v1/sandbox-configs/[id]/image/route';
import * as retryRoute from '@/app/api/v1/sandbox-configs/[id]/skills/[skillKey]/retry/route';
import * as configSkill from '@/app/api/v1/sandbox-configs/[id]/skills/[skillKey]/route';
import * as stopRoute from '@/app/api/v1/sandbox-configs/[id]/skills/[skillKey]/stop/route';
import * as updateRoute from '@/app/api/v1/sandbox-configs/[id]/skills/[skillKey]/update/route';
import * as configSkills from '@/app/api/v1/sandbox-configs/[id]/skills/route';
import * as rollbackRoute from '@/app/api/v1/skills/rollback/route';
import * as uninstallRoute from '@/app/api/v1/skills/uninstall/route';
import { auditLog, sandboxSkillInstalls } from '@/db/schema';
import { ops } from '@/lib/api/operations';
import { createUser } from '@/lib/auth/users';
import { action, createActionClient } from '@/lib/http/action';
import { getJob } from '@/lib/jobs/queue';
import { setServices } from '@/lib/services';
import { managedStore } from '@/lib/skills/service/roots';
import { activeVersion } from '@/lib/skills/store';
import { apiUser, jobEnd } from '@/test/helpers/api';
import { describeDocker } from '@/test/helpers/docker';
import { echoSkill, type InstallKit, installActor, skillMd, startInstallKit } from '@/test/helpers/install-jobs';
import { waitFor } from '@/test/helpers/services';
import { sessionCookieFor } from '@/test/helpers/session';
import { type Json, skillsClient, writeSkill } from '@/test/helpers/skills-api';
import { zipSkill } from '@/test/helpers/skills-archives';
import { configImageLockKey } from './jobs/config-lock';
import * as store from './records/store';

type Handler = (req: Request, args?: { params?: Promise<Record<string, string>> }) => Promise<Response>;

describeDocker('skill install API', () => {
  let kit: InstallKit;
  let admin = '';
  let viewer = '';
  let cfg = '';
  const db = () => kit.ts.services.database.db;

  async function call(h: Handler, method: string, params: Record<string, string>, body?: unknown, token = admin) {
    const url = `http://localhost/api/v1/sandbox-configs/${params.id ?? ''}/skills/${params.skillKey ?? ''}`;
    const res = await h(
      new Request(url, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      { params: Promise.resolve(params) },
    );
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as Json };
  }
  const install = (skillKey: string, configId = cfg, token = admin) => call(configSkills.POST, 'POST', { id: configId }, { skillKey }, token);
  const getOne = (skillKey: string, configId = cfg) => call(configSkill.GET, 'GET', { id: configId, skillKey });
  /** What a refusal must leave alone: every record and every install audit row. */
  const written = async () => ({
    records: await db().select().from(sandboxSkillInstalls),
    audit: (await db().select({ n: count() }).from(auditLog).where(like(auditLog.action, 'sandbox.skill.%')))[0].n,
  });

  beforeAll(async () => {
    kit = await startInstallKit();
    setServices(Promise.resolve(kit.ts.services));
    const s = kit.ts.services;
    admin = (
      await apiUser(s, {
        email: 'inst-admin@example.test',
        role: 'admin',
        tokenName: 'inst',
        permissions: ['sandboxes.read', 'sandboxes.write', 'skills.read', 'skills.write'],
      })
    ).token;
    viewer = (await apiUser(s, { email: 'inst-viewer@example.test', role: 'viewer', tokenName: 'look', permissions: ['sandboxes.read'] })).token;
    cfg = await kit.newConfig('api-install');
  }, 180_000);

  afterAll(async () => {
    await kit?.stop();
  });

  it('installs through REST as a job (202 + job id); the same content again is a no-op without a job', async () => {
    const skill = await kit.storeSkill('hello', { 'SKILL.md': skillMd('hello', ['sh']), 'hello.sh': '#!/bin/sh\necho "hello $1"\n' });
    const r = await install('hello');
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body).toMatchObject({ noop: false, install: { state: 'installing', configName: 'api-install', version: skill.version, skillKey: 'hello' } });
    expect(typeof r.body.jobId).toBe('string');
    expect(r.body.install.jobId).toBe(r.body.jobId);
    expect((await jobEnd(kit.ts.services, r.body.jobId)).state).toBe('succeeded');
    const one = await getOne('hello');
    expect(one.body).toMatchObject({ state: 'ready', served: { version: skill.version, contentHash: skill.contentHash }, catalogVersion: null });
    expect((await kit.runIn(cfg, ['/opt/skilldock/skills/hello/hello.sh', 'api'])).stdout).toBe('hello api\n');

    const before = await written();
    const again = await install('hello');
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ noop: true, jobId: null, install: { state: 'ready' } });
    expect(await written()).toEqual(before);
  }, 240_000);

  it('the server action door installs the same way and writes the same audit record', async () => {
    const s = kit.ts.services;
    const u = await createUser(db(), installActor, { email: 'inst-session@example.test', name: 'Session', role: 'admin', password: 'a long enough password' });
    const cookie = await sessionCookieFor(s.authSecret, u.id);
    const client = createActionClient({ request: async () => ({ cookie, ip: null, userAgent: 'install-test' }), services: async () => s });
    await kit.storeSkill('alpha', echoSkill('alpha'));
    const a = await action(ops.installConfigSkill, client)({ params: { id: cfg }, body: { skillKey: 'alpha' } });
    expect(a.serverError).toBeUndefined();
    expect(a.data).toMatchObject({ noop: false, install: { state: 'installing', skillKey: 'alpha' } });
    expect((await jobEnd(s, a.data!.jobId!)).state).toBe('succeeded');
    const audit = await s.database.db.select().from(auditLog).where(like(auditLog.action, 'sandbox.skill.install'));
    expect(audit.map((x) => x.actorLabel)).toEqual(expect.arrayContaining(['inst-session@example.test', 'inst-admin@example.test (token "inst")']));
    const viewerCookie = await sessionCookieFor(
      s.authSecret,
      (await createUser(db(), installActor, { email: 'v2@example.test', name: 'V', role: 'viewer', password: 'a long enough password' })).id,
    );
    const denied = await action(
      ops.installConfigSkill,
      createActionClient({ request: async () => ({ cookie: viewerCookie, ip: null, userAgent: null }), services: async () => s }),
    )({ params: { id: cfg }, body: { skillKey: 'alpha' } });
    expect(denied.serverError).toMatchObject({ code: 'forbidden', status: 403 });
  }, 240_000);

  it('refuses bad input, unknown skills and configs, and viewers, writing nothing', async () => {
    const before = await written();
    const ws = path.join(kit.ts.dataDir, 'ws-skills');
    fs.mkdirSync(ws, { recursive: true });
    expect((await skillsClient(kit.ts.services, admin).settings({ workspaceDir: ws })).status).toBe(200);
    writeSkill(path.join(ws, 'skills'), 'local-only', { 'SKILL.md': skillMd('local-only', ['sh']) });
    await kit.ts.services.skills.refresh();

    const badKey = await install('Bad_Key!');
    expect(badKey.status).toBe(400);
    expect(badKey.body.error.code).toBe('validation');
    const unknown = await install('never-imported');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('import it into the catalog first');
    const local = await install('local-only');
    expect(local.status).toBe(409);
    expect(local.body.error.message).toContain('only imported skills can be installed');
    expect((await install('hello', 'nosuchconfig')).status).toBe(404);
    const long = await call(retryRoute.POST, 'POST', { id: cfg, skillKey: 'hello' }, { notes: 'x'.repeat(2001) });
    expect(long.status).toBe(400);
    expect(long.body.error.issues.map((i: Json) => i.path)).toContain('notes');
    const asViewer = await install('alpha', cfg, viewer);
    expect(asViewer.status).toBe(403);
    expect((await call(configSkills.GET, 'GET', { id: cfg }, undefined, viewer)).status).toBe(200);
    expect((await call(configSkill.PATCH, 'PATCH', { id: cfg, skillKey: 'hello' }, { enabled: false }, viewer)).status).toBe(403);
    expect(await written()).toEqual(before);
  }, 120_000);

  it('refuses a second install while one runs (409); stop ends it failed as stopped; retry stores the notes', async () => {
    await kit.storeSkill('slow', echoSkill('slow'));
    // Holding the config's image lock keeps the job waiting inside its run, so the stop meets a running job.
    await kit.ts.services.database.withLock(configImageLockKey(cfg), async () => {
      const r = await install('slow');
      expect(r.status).toBe(202);
      await waitFor(async () => ((await getJob(kit.ts.services.database, r.body.jobId)).state === 'running' ? true : null), 'the job to run', 60_000);
      const second = await install('slow');
      expect(second.status).toBe(409);
      expect(second.body.error.code).toBe('invalid_state');
      const stopped = await call(stopRoute.POST, 'POST', { id: cfg, skillKey: 'slow' });
      expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
      expect(stopped.body).toMatchObject({ state: 'failed', error: { code: 'stopped' } });
      expect((await getJob(kit.ts.services.database, r.body.jobId)).cancelRequested).toBe(true);
      return r.body.jobId as string;
    });
    expect((await getOne('slow')).body).toMatchObject({ state: 'failed', error: { code: 'stopped' } });
    expect(await kit.maintenanceLeft(cfg)).toEqual([]);

    const retried = await call(retryRoute.POST, 'POST', { id: cfg, skillKey: 'slow' }, { notes: 'second try, after the stop' });
    expect(retried.status).toBe(202);
    expect(retried.body.install).toMatchObject({ state: 'installing', notes: 'second try, after the stop' });
    expect((await jobEnd(kit.ts.services, retried.body.jobId)).state).toBe('succeeded');
    expect((await getOne('slow')).body).toMatchObject({ state: 'ready', notes: 'second try, after the stop', error: null });
  }, 240_000);

  it('disables and enables an installed skill', async () => {
    const off = await call(configSkill.PATCH, 'PATCH', { id: cfg, skillKey: 'alpha' }, { enabled: false });
    expect(off.body).toMatchObject({ state: 'disabled', served: null });
    const on = await call(configSkill.PATCH, 'PATCH', { id: cfg, skillKey: 'alpha' }, { enabled: true });
    expect(on.body).toMatchObject({ state: 'ready', served: { version: on.body.version } });
  });

  it('bulk install into one config: one job for the accepted skills, the refused ones listed', async () => {
    await kit.storeSkill('beta', echoSkill('beta'));
    const r = await call(bulkRoute.POST, 'POST', { id: cfg }, { skillKeys: ['beta', 'never-imported', 'hello'] });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body.errors).toEqual([{ target: 'never-imported', code: 'not_found', message: expect.stringContaining('import it') }]);
    expect(r.body.installs.map((i: Json) => [i.skillKey, i.state])).toEqual([
      ['beta', 'installing'],
      ['hello', 'ready'],
    ]);
    expect((await jobEnd(kit.ts.services, r.body.jobId)).state).toBe('succeeded');
    const none = await call(bulkRoute.POST, 'POST', { id: cfg }, { skillKeys: ['never-imported'] });
    expect(none.status).toBe(404);
    expect(none.body.error.details.errors).toHaveLength(1);
  }, 240_000);

  it('the catalog refuses to delete an installed skill, naming the config; a new version makes the install updatable', async () => {
    const catalog = skillsClient(kit.ts.services, admin);
    const refused = await catalog.post(uninstallRoute.POST as Handler, '/api/v1/skills/uninstall', { slug: 'hello' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('api-install');
    expect(refused.body.error.details.installs.map((i: Json) => i.configName)).toEqual(['api-install']);
    expect(await activeVersion(managedStore(kit.ts.dataDir), 'hello')).not.toBeNull();

    const zip = zipSkill('hello', { 'SKILL.md': skillMd('hello', ['sh']), 'hello.sh': '#!/bin/sh\necho "hello v2 $1"\n' });
    const imported = await catalog.importArchive(zip, { slug: 'hello', force: true });
    expect(imported.state, imported.error ?? '').toBe('succeeded');
    const v2 = (imported.result as Json).version as string;
    const stale = await getOne('hello');
    expect(stale.body).toMatchObject({ updatable: true, catalogVersion: v2, state: 'ready' });

    const up = await call(updateRoute.POST, 'POST', { id: cfg, skillKey: 'hello' }, {});
    expect(up.status, JSON.stringify(up.body)).toBe(202);
    expect(up.body.install).toMatchObject({ state: 'installing', version: v2, served: { version: stale.body.version } });
    expect((await jobEnd(kit.ts.services, up.body.jobId)).state).toBe('succeeded');
    expect((await getOne('hello')).body).toMatchObject({ state: 'ready', version: v2, updatable: false, catalogVersion: null });
    expect((await kit.runIn(cfg, ['sh', '/opt/skilldock/skills/hello/hello.sh', 'x'])).stdout).toBe('hello v2 x\n');
    const nothingNewer = await call(updateRoute.POST, 'POST', { id: cfg, skillKey: 'hello' }, {});
    expect(nothingNewer.status).toBe(409);
    expect(nothingNewer.body.error.code).toBe('no_update_known');

    // A catalog rollback to the first version makes the install updatable to it again.
    const rolled = await catalog.post(rollbackRoute.POST as Handler, '/api/v1/skills/rollback', { slug: 'hello', version: stale.body.version });
    expect(rolled.status, JSON.stringify(rolled.body)).toBe(200);
    expect((await getOne('hello')).body).toMatchObject({ state: 'ready', version: v2, updatable: true, catalogVersion: stale.body.version });
  }, 240_000);

  it('removes a skill as a job and shows the image with its generations', async () => {
    const r = await call(configSkill.DELETE, 'DELETE', { id: cfg, skillKey: 'beta' });
    expect(r.status).toBe(202);
    expect(r.body.install.state).toBe('removing');
    expect((await jobEnd(kit.ts.services, r.body.jobId)).state).toBe('succeeded');
    expect((await getOne('beta')).status).toBe(404);
    expect(await store.listInstalls(db(), { configId: cfg, skillKey: 'beta' })).toEqual([]);
    const img = await call(imageRoute.GET, 'GET', { id: cfg });
    expect(img.status).toBe(200);
    expect(img.body).toMatchObject({ rollout: 'next_turn', health: { state: 'ok' }, active: { state: 'active' } });
    expect(img.body.active.skills.map((s: Json) => s.skillKey).sort()).toEqual(['alpha', 'hello', 'slow']);
    expect(img.body.generations.length).toBeGreaterThan(1);
    // Each generation is committed on the one before: its disk use counts their shared layers once.
    const kept = img.body.generations.filter((g: Json) => g.state !== 'deleted');
    expect(img.body.disk).toMatchObject({ source: 'engine', generations: kept.length, exact: true, error: null });
    expect(img.body.disk.bytes).toBeGreaterThan(0);
    if (kept.length > 1) expect(img.body.disk.bytes).toBeLessThan(kept.reduce((n: number, g: Json) => n + g.sizeBytes, 0));
  }, 240_000);
});
