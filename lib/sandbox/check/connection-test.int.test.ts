// "Test connection" on unsaved values: the four probes that create nothing, against a real engine,
// and the same refusals as a save (schema, server-side checks, "***" only with a stored config).
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hasCode } from '@/lib/core/errors';
import type { Services } from '@/lib/services';
import { describeDocker } from '@/test/helpers/docker';
import { ensureBusyboxImage } from '@/test/helpers/sandbox-images';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { createConfig } from '../config/store';
import { testConnection } from './connection-test';
import type { ConnectionTestInput } from './schema';

const host = process.env.DOCKER_HOST ?? '';

describeDocker('test connection', () => {
  const docker = new Docker();
  let image = '';
  let ts: TestServices;
  let s: Services;
  const run = (input: ConnectionTestInput) =>
    testConnection({ ...s.sandboxes, validate: { tlsRoots: s.config.dockerTlsRoots, workspaceRoots: s.config.workspaceRoots } }, input);
  const statuses = (r: { probes: { name: string; status: string }[] }) => r.probes.map((p) => [p.name, p.status]);
  const containers = async () => (await docker.listContainers({ all: true })).length;

  beforeAll(async () => {
    image = await ensureBusyboxImage(docker);
    ts = await startTestServices({ worker: false });
    s = ts.services;
  });
  afterAll(async () => {
    await ts?.stop();
  });

  it('passes client, endpoint, credentials and image on a working engine, creating nothing', async () => {
    const before = await containers();
    const r = await run({ backend: 'docker', config: { image, host } });
    expect(statuses(r)).toEqual([
      ['client', 'pass'],
      ['endpoint', 'pass'],
      ['credentials', 'pass'],
      ['image', 'pass'],
    ]);
    expect(r.probes[1].detail?.version).toEqual(expect.any(String));
    expect(await containers()).toBe(before);
  });

  it('tests the engine before an image is entered: the image probe is skipped, saying why', async () => {
    for (const config of [{ host }, { host, image: '' }]) {
      const r = await run({ backend: 'docker', config });
      expect(statuses(r)).toEqual([
        ['client', 'pass'],
        ['endpoint', 'pass'],
        ['credentials', 'pass'],
        ['image', 'skipped'],
      ]);
      expect(r.probes[3].reason).toBe('no image entered yet: enter one (Runtime) to check that the engine has it');
    }
  });

  it('names the failing probe: a missing image, an engine that does not answer', async () => {
    const missing = await run({ backend: 'docker', config: { image: 'skilldock-test/absent:1', host } });
    expect(statuses(missing).at(-1)).toEqual(['image', 'fail']);
    expect(missing.probes.at(-1)?.reason).toMatch(/not present/);
    const down = await run({ backend: 'docker', config: { image, host: 'unix:///nonexistent/docker.sock' } });
    expect(statuses(down)).toEqual([
      ['client', 'pass'],
      ['endpoint', 'fail'],
      ['credentials', 'skipped'],
      ['image', 'skipped'],
    ]);
  });

  it('refuses what a save refuses, with field issues', async () => {
    const bad = await run({ backend: 'docker', config: { image: 'busybox;rm -rf /', host } }).catch((e) => e);
    expect(hasCode(bad, 'validation')).toBe(true);
    expect(bad.issues[0].path).toBe('config.image');
    const ssrf = await run({ backend: 'docker', config: { image, host: 'tcp://169.254.169.254:2375' } }).catch((e) => e);
    expect(hasCode(ssrf, 'ssrf_blocked')).toBe(true);
  });

  it('takes "***" as the stored secret only for a stored config of the same backend', async () => {
    const e2b = { apiUrl: 'https://api.e2b.invalid', apiKey: '***', templateId: 'base' };
    const noId = await run({ backend: 'e2b', config: e2b }).catch((e) => e);
    expect(hasCode(noId, 'validation')).toBe(true);
    expect(noId.issues[0].path).toBe('config.apiKey');
    const actor = { kind: 'system', label: 'conn-test', userId: null, permissions: new Set<string>() } as never;
    const stored = await createConfig(
      {
        db: s.database.db,
        secrets: s.secrets,
        usage: { configInUse: async () => ({ verified: true, instances: [], agents: [] }) } as never,
        validate: { tlsRoots: [], workspaceRoots: [] },
      },
      actor,
      { name: `conn-${Date.now()}`, backend: 'docker', description: '', config: { image, host } } as never,
    );
    const mismatch = await run({ backend: 'e2b', config: e2b, id: stored.id }).catch((e) => e);
    expect(hasCode(mismatch, 'validation')).toBe(true);
    expect(mismatch.message).toMatch(/docker config/);
  });
});
