// The full check of an E2B config, stored like any other and turned into a client by the factory,
// against the loopback E2B server whose sandboxes are real containers.
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Actor, systemActor } from '@/lib/auth/actor';
import { ALL_PERMISSIONS } from '@/lib/auth/permissions';
import { enqueue, getJob } from '@/lib/jobs/queue';
import { createConfig, getConfig, loadRow } from '@/lib/sandbox/config/store';
import { describeDocker } from '@/test/helpers/docker';
import { type E2bServer, serverContainers, startE2bServer } from '@/test/helpers/e2b-server';
import { startTestServices, type TestServices, waitFor } from '@/test/helpers/services';
import { backendForConfig, sandboxSpecFor } from '../factory';
import { type FullCheckReport, PROBE_NAMES, runFullCheck } from './full-check';
import { sandboxCheckJob } from './job';

const actor: Actor = { ...systemActor, kind: 'user', label: 'e2b-check-test', permissions: new Set(ALL_PERMISSIONS) };

describeDocker('full check of E2B and Cube configs', () => {
  const docker = new Docker();
  let server: E2bServer;
  let ts: TestServices;

  beforeAll(async () => {
    server = await startE2bServer({ docker, flavor: 'e2b', templates: ['skilldock-test'] });
    ts = await startTestServices({ worker: true });
  });
  afterAll(async () => {
    await ts?.stop();
    await server?.close();
    expect(await serverContainers(docker, server)).toEqual([]);
  });

  const deps = () => ({
    db: ts.services.database.db,
    secrets: ts.services.secrets,
    usage: ts.services.sandboxUsage,
    validate: { tlsRoots: [], workspaceRoots: [] },
  });
  const e2bConfig = (templateId: string) =>
    createConfig(deps(), actor, {
      name: `e2b-${templateId}-${Math.random().toString(36).slice(2, 8)}`,
      backend: 'e2b',
      description: '',
      config: { apiUrl: server.apiUrl, proxyUrl: server.proxyUrl, domain: server.baseDomain, apiKey: server.apiKey, templateId, allowPrivateEndpoints: true },
    } as never);

  it('a check job passes every probe through the proxy URL, enables the config and leaves no sandbox', async () => {
    const cfg = await e2bConfig('skilldock-test');
    const job = await enqueue(ts.services.database, actor, sandboxCheckJob, { configId: cfg.id }, { trusted: true });
    const done = await waitFor(
      async () => {
        const j = await getJob(ts.services.database, job.id);
        return j.state === 'succeeded' || j.state === 'failed' ? j : null;
      },
      'the check job',
      60_000,
    );
    const report = done.result as FullCheckReport;
    // E2B enforces the network policy itself: the Docker-only network probe says so instead of passing.
    const expected = PROBE_NAMES.map((n) => [n, 'pass']);
    expected.splice(PROBE_NAMES.indexOf('cleanup'), 0, ['network', 'skipped']);
    expect(report.probes.map((p) => [p.name, p.status])).toEqual(expected);
    expect(report.probes.find((p) => p.name === 'network')?.reason).toMatch(/E2B enforces/);
    expect((await getConfig(deps(), cfg.id)).enabled).toBe(true);
    expect(server.sandboxes.size).toBe(0);
  });

  it('a missing template is the failing probe', async () => {
    const cfg = await e2bConfig('absent-template');
    const row = await loadRow(ts.services.database.db, cfg.id);
    const r = await runFullCheck({
      backend: () => backendForConfig(row, { secrets: ts.services.secrets, workspaceRoots: () => [] }),
      spec: sandboxSpecFor(row),
    });
    expect(Object.fromEntries(r.probes.map((p) => [p.name, p.status]))).toMatchObject({
      endpoint: 'pass',
      credentials: 'pass',
      image: 'fail',
      create: 'skipped',
    });
  });

  it('a wrong API key fails the credentials probe with the API’s reason', async () => {
    const cfg = await e2bConfig('skilldock-test');
    const row = await loadRow(ts.services.database.db, cfg.id);
    const r = await runFullCheck({
      backend: () => backendForConfig({ ...row, secretsSealed: null }, { secrets: ts.services.secrets, workspaceRoots: () => [] }),
      spec: sandboxSpecFor(row),
    });
    const failed = r.probes.find((p) => p.status === 'fail');
    expect(failed?.name).toBe('credentials');
    expect(failed?.reason).toMatch(/key|credential|unauth/i);
  });
});
