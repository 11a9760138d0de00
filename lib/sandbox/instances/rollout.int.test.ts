// Rollout of a config's skill snapshot to its running sandboxes, on a real engine with the offline
// busybox image: snapshots are containers committed by the test (a marker file only they hold),
// recorded and activated through the image store, as a skill install does.
import Docker from 'dockerode';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, sandboxConfigs } from '@/db/schema';
import { ops } from '@/lib/api/operations';
import { ROLE_PERMISSIONS } from '@/lib/auth';
import type { Actor } from '@/lib/auth/actor';
import { hasCode } from '@/lib/core/errors';
import { route } from '@/lib/http/route';
import { activateImage, planImage } from '@/lib/sandbox/images/images';
import { setServices } from '@/lib/services';
import { apiUser } from '@/test/helpers/api';
import { describeDocker } from '@/test/helpers/docker';
import { ensureBusyboxImage } from '@/test/helpers/sandbox-images';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { CONFIG_LABEL } from '../config/in-use';
import { createConfig } from '../config/store';
import { RECYCLED_FROM_LABEL, staleReason } from './rollout';
import { execInInstance, getInstance, listInstances, STARTED_BY_LABEL, startInstance } from './service';

const TEST_LABEL = 'skilldock.test=rollout';

describeDocker('skill snapshot rollout', () => {
  const docker = new Docker();
  let ts: TestServices;
  let image = '';
  let operator: { token: string; actor: Actor };
  let viewer: { token: string; actor: Actor };
  const configs: string[] = [];
  const refs: string[] = [];
  const db = () => ts.services.database.db;
  const deps = () => ts.services.sandboxes;

  async function newConfig(name: string, config: Record<string, unknown> = {}): Promise<string> {
    const s = ts.services;
    const cfg = await createConfig(
      { db: s.database.db, secrets: s.secrets, usage: s.sandboxUsage, validate: { tlsRoots: [], workspaceRoots: [] } },
      operator.actor,
      {
        name,
        backend: 'docker',
        description: '',
        config: { image, host: process.env.DOCKER_HOST ?? '', memoryLimitMb: 96, pidsLimit: 64, cpuLimit: 0.5, networkMode: 'none', ...config },
      } as never,
    );
    await s.database.db.update(sandboxConfigs).set({ enabled: true }).where(eq(sandboxConfigs.id, cfg.id));
    configs.push(cfg.id);
    return cfg.id;
  }

  /** The next generation of the config: the base image with /marker holding `marker`, activated. */
  async function activateSnapshot(configId: string, marker: string) {
    const planned = await planImage(db(), configId);
    refs.push(planned.plannedRef);
    const c = await docker.createContainer({
      Image: image,
      Entrypoint: ['sh', '-c'],
      Cmd: [`echo ${marker} > /marker`],
      Labels: { 'skilldock.test': 'rollout' },
    });
    await c.start();
    await c.wait();
    const colon = planned.plannedRef.lastIndexOf(':');
    await c.commit({ repo: planned.plannedRef.slice(0, colon), tag: planned.plannedRef.slice(colon + 1) });
    await c.remove({ force: true });
    const committed = await docker.getImage(planned.plannedRef).inspect();
    return (await activateImage(db(), planned.id, { imageId: committed.Id })).image;
  }

  const containerOf = async (sandboxId: string) =>
    docker
      .getContainer(sandboxId)
      .inspect()
      .catch((e: { statusCode?: number }) => (e.statusCode === 404 ? null : Promise.reject(e)));
  const liveOf = async (configId: string) => (await listInstances(deps(), { configId })).items;

  async function callRoute(name: 'recycleInstance' | 'listSandboxes', token: string, path: string, params: Record<string, string> = {}) {
    const res = await route(ops[name] as never)(
      new Request(`http://localhost${path}`, { method: name === 'recycleInstance' ? 'POST' : 'GET', headers: { authorization: `Bearer ${token}` } }),
      {
        params: Promise.resolve(params),
      },
    );
    return { status: res.status, json: (await res.json()) as Record<string, any> };
  }

  beforeAll(async () => {
    image = await ensureBusyboxImage(docker);
    ts = await startTestServices({ worker: false });
    setServices(Promise.resolve(ts.services));
    operator = await apiUser(ts.services, { email: 'operator@rollout.test', role: 'operator', tokenName: 'op', permissions: [...ROLE_PERMISSIONS.operator] });
    viewer = await apiUser(ts.services, { email: 'viewer@rollout.test', role: 'viewer', tokenName: 'v', permissions: [...ROLE_PERMISSIONS.viewer] });
  }, 120_000);

  afterAll(async () => {
    const labels = [TEST_LABEL, ...configs.map((c) => `${CONFIG_LABEL}=${c}`)];
    for (const l of labels)
      for (const c of await docker.listContainers({ all: true, filters: { label: [l] } }))
        await docker
          .getContainer(c.Id)
          .remove({ force: true, v: true })
          .catch(() => {});
    for (const ref of refs)
      await docker
        .getImage(ref)
        .remove({ force: true })
        .catch(() => {});
    await ts?.stop();
  });

  describe('next_turn (the default)', () => {
    let cfg = '';
    let firstId = '';
    let replacementId = '';

    it('marks a running sandbox stale once a snapshot is active', async () => {
      cfg = await newConfig('rollout-next-turn');
      const a = await startInstance(deps(), operator.actor, cfg);
      expect(a).toMatchObject({ stale: false, imageGeneration: null, activeImageGeneration: null });
      firstId = a.id;
      await execInInstance(deps(), operator.actor, a.id, { argv: ['sh', '-c', 'echo kept > /workspace/old-file'] });

      const g1 = await activateSnapshot(cfg, 'generation-one');
      expect(g1).toMatchObject({ generation: 1, state: 'active' });
      const [listed] = await liveOf(cfg);
      expect(listed).toMatchObject({ id: a.id, stale: true, imageGeneration: null, activeImageGeneration: 1 });
      expect(staleReason({ ...listed, activeGeneration: listed.activeImageGeneration })).toBe('started from the base image; generation 1 is active');
      expect(await getInstance(deps(), a.id)).toMatchObject({ stale: true, activeImageGeneration: 1 });
    }, 120_000);

    it('refuses a new terminal on the stale sandbox: recycle first', async () => {
      const err = await ts.services.terminals.issueTicket(operator.actor, firstId, { origin: 'http://localhost' }).catch((e) => e);
      expect(hasCode(err, 'invalid_state')).toBe(true);
      expect(err.details).toMatchObject({ reason: 'recycle_first', imageGeneration: null, activeGeneration: 1 });
    });

    it('recycles the stale sandbox at its next exec: the command runs in a replacement from the snapshot', async () => {
      const oldSandbox = firstId.split('~')[1];
      const r = await execInInstance(deps(), operator.actor, firstId, { argv: ['sh', '-c', 'cat /marker; ls /workspace'] });
      expect(r.exitCode).toBe(0);
      // The marker exists only in the snapshot; the old workspace file did not come along.
      expect(r.stdout).toBe('generation-one\ninput\noutput\n');
      expect(r.recycled?.from).toBe(firstId);
      expect(r.recycled?.to).toMatch(new RegExp(`^${cfg}~[a-f0-9]{64}$`));
      expect(r.recycled?.to).not.toBe(firstId);
      replacementId = r.recycled!.to;
      expect(await containerOf(oldSandbox)).toBeNull();

      const fresh = await containerOf(replacementId.split('~')[1]);
      const active = (await docker.getImage(refs[refs.length - 1]).inspect()).Id;
      expect(fresh?.Image).toBe(active);
      expect(fresh?.Config.Labels[RECYCLED_FROM_LABEL]).toBe(oldSandbox);
      expect(fresh?.Config.Labels[STARTED_BY_LABEL]).toBe(operator.actor.label);
      const items = await liveOf(cfg);
      expect(items.map((i) => [i.id, i.stale, i.imageGeneration])).toEqual([[replacementId, false, 1]]);

      const [audit] = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'sandbox.instance.recycle'), eq(auditLog.targetId, firstId)));
      expect(audit?.after).toMatchObject({ id: replacementId, imageGeneration: 1, reason: 'next_turn' });
    }, 120_000);

    it('an exec through the replaced id leads to the replacement, without another recycle', async () => {
      const r = await execInInstance(deps(), operator.actor, firstId, { argv: ['cat', '/marker'] });
      expect(r).toMatchObject({ exitCode: 0, stdout: 'generation-one\n', recycled: { from: firstId, to: replacementId } });
      const direct = await execInInstance(deps(), operator.actor, replacementId, { argv: ['cat', '/marker'] });
      expect(direct.recycled).toBeUndefined();
      expect((await liveOf(cfg)).map((i) => i.id)).toEqual([replacementId]);
    }, 60_000);

    it('concurrent execs on a stale sandbox share one recycle', async () => {
      await activateSnapshot(cfg, 'generation-two');
      const [stale] = await liveOf(cfg);
      expect(stale).toMatchObject({ id: replacementId, stale: true, imageGeneration: 1, activeImageGeneration: 2 });
      const [a, b] = await Promise.all([
        execInInstance(deps(), operator.actor, replacementId, { argv: ['cat', '/marker'] }),
        execInInstance(deps(), operator.actor, replacementId, { argv: ['cat', '/marker'] }),
      ]);
      expect(a.stdout).toBe('generation-two\n');
      expect(b.stdout).toBe('generation-two\n');
      expect(a.recycled?.to).toBeDefined();
      expect(b.recycled?.to).toBe(a.recycled?.to);
      const items = await liveOf(cfg);
      expect(items.map((i) => [i.id, i.imageGeneration, i.stale])).toEqual([[a.recycled?.to, 2, false]]);
      replacementId = a.recycled!.to;
    }, 120_000);

    it('a replacement that cannot start fails the exec and leaves the old sandbox as it was', async () => {
      const g3 = await activateSnapshot(cfg, 'generation-three');
      // Removed behind Skilldock's back: the active generation's image is gone.
      await docker.getImage(g3.plannedRef).remove({ force: true });
      const err = await execInInstance(deps(), operator.actor, replacementId, { argv: ['cat', '/marker'] }).catch((e) => e);
      expect(err).toBeInstanceOf(Error);
      expect(String(err.message)).toMatch(/replacement sandbox could not start/);
      expect(await containerOf(replacementId.split('~')[1])).not.toBeNull();
      expect((await liveOf(cfg)).map((i) => [i.id, i.stale])).toEqual([[replacementId, true]]);
    }, 120_000);
  });

  describe('new_session, and the recycle operation', () => {
    let cfg = '';
    let otherCfg = '';
    let staleId = '';

    it('leaves a running sandbox on its image at its next exec; only new sandboxes get the snapshot', async () => {
      cfg = await newConfig('rollout-new-session', { skillRollout: 'new_session' });
      const b = await startInstance(deps(), operator.actor, cfg);
      staleId = b.id;
      await activateSnapshot(cfg, 'session-one');
      const r = await execInInstance(deps(), operator.actor, b.id, { argv: ['cat', '/marker'] });
      expect(r.exitCode).not.toBe(0);
      expect(r.recycled).toBeUndefined();
      expect(await containerOf(b.sandboxId)).not.toBeNull();
      const c = await startInstance(deps(), operator.actor, cfg);
      expect(c).toMatchObject({ stale: false, imageGeneration: 1, activeImageGeneration: 1 });
      expect((await execInInstance(deps(), operator.actor, c.id, { argv: ['cat', '/marker'] })).stdout).toBe('session-one\n');
      const byId = new Map((await liveOf(cfg)).map((i) => [i.id, i.stale]));
      expect(byId).toEqual(
        new Map([
          [b.id, true],
          [c.id, false],
        ]),
      );
      // A terminal is a use too, but a new_session config opens it on the old image.
      const ticket = await ts.services.terminals.issueTicket(operator.actor, b.id, { origin: 'http://localhost' });
      expect(ticket.ticket).toEqual(expect.any(String));
    }, 120_000);

    it('GET /api/v1/sandboxes?configId= lists only that config’s sandboxes, with the stale flag', async () => {
      otherCfg = await newConfig('rollout-other');
      const other = await startInstance(deps(), operator.actor, otherCfg);
      const r = await callRoute('listSandboxes', viewer.token, `/api/v1/sandboxes?configId=${cfg}`);
      expect(r.status).toBe(200);
      const items = r.json.items as { id: string; configId: string; stale: boolean }[];
      expect(items.length).toBe(2);
      expect(items.every((i) => i.configId === cfg)).toBe(true);
      expect(items.map((i) => i.id)).not.toContain(other.id);
      expect(items.find((i) => i.id === staleId)?.stale).toBe(true);
    }, 60_000);

    it('a viewer cannot recycle; an unknown sandbox is 404', async () => {
      const denied = await callRoute('recycleInstance', viewer.token, `/api/v1/sandboxes/${encodeURIComponent(staleId)}/recycle`, { id: staleId });
      expect(denied.status).toBe(403);
      expect(await containerOf(staleId.split('~')[1])).not.toBeNull();
      const missing = `${cfg}~${'0'.repeat(64)}`;
      const r404 = await callRoute('recycleInstance', operator.token, `/api/v1/sandboxes/${encodeURIComponent(missing)}/recycle`, { id: missing });
      expect(r404.status).toBe(404);
      const noConfig = `no-such-config~${'0'.repeat(64)}`;
      expect((await callRoute('recycleInstance', operator.token, '/api/v1/sandboxes/x/recycle', { id: noConfig })).status).toBe(404);
      expect((await callRoute('recycleInstance', operator.token, '/api/v1/sandboxes/x/recycle', { id: 'not an id' })).status).toBe(400);
    }, 60_000);

    it('an operator recycles the stale sandbox with one call: a replacement on the active image, audited', async () => {
      const r = await callRoute('recycleInstance', operator.token, `/api/v1/sandboxes/${encodeURIComponent(staleId)}/recycle`, { id: staleId });
      expect(r.status).toBe(200);
      expect(r.json.from).toBe(staleId);
      expect(r.json.instance).toMatchObject({ configId: cfg, stale: false, imageGeneration: 1, activeImageGeneration: 1, state: 'running' });
      expect(r.json.instance.id).not.toBe(staleId);
      expect(await containerOf(staleId.split('~')[1])).toBeNull();
      expect((await execInInstance(deps(), operator.actor, r.json.instance.id, { argv: ['cat', '/marker'] })).stdout).toBe('session-one\n');
      expect((await liveOf(cfg)).every((i) => !i.stale)).toBe(true);
      const [audit] = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'sandbox.instance.recycle'), eq(auditLog.targetId, staleId)));
      expect(audit).toMatchObject({ actorLabel: expect.stringContaining('operator@rollout.test') });
      expect(audit?.after).toMatchObject({ id: r.json.instance.id, reason: 'manual' });
    }, 120_000);
  });
});
