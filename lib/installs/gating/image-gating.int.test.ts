// Skill gating inside a sandbox config's image, on a real engine with the offline busybox image:
// one probe container per image (counted from the engine's own events, by this run's label), gone
// afterwards; hostile program names refused before any container exists; reasons naming the config.
import { randomBytes } from 'node:crypto';
import Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sandboxConfigs } from '@/db/schema';
import { type Actor, systemActor } from '@/lib/auth/actor';
import { ALL_PERMISSIONS } from '@/lib/auth/permissions';
import { createConfig } from '@/lib/sandbox/config/store';
import { DockerBackend } from '@/lib/sandbox/docker/backend';
import { setEnv } from '@/lib/sandbox/env/store';
import { evaluateGating } from '@/lib/skills/gating';
import type { SkillManifest } from '@/lib/skills/types';
import { describeDocker } from '@/test/helpers/docker';
import { ensureBusyboxImage } from '@/test/helpers/sandbox-images';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { gateSkillsInConfig, ImageProbeCache, imageGatingTarget, PROBE_LABEL, probeImage } from './image-gating';

const RUN = randomBytes(6).toString('hex');
const TEST_LABEL = 'io.skilldock.test-run';
const RUN_LABELS = { [TEST_LABEL]: RUN };
const actor: Actor = { ...systemActor, kind: 'user', label: 'image-gating-test', permissions: new Set(ALL_PERMISSIONS) };

function manifest(name: string, requires: Partial<SkillManifest['requires']> = {}, over: Partial<SkillManifest> = {}): SkillManifest {
  return {
    name,
    description: `${name} test skill`,
    allowedTools: [],
    userInvocable: true,
    disableModelInvocation: false,
    commandArgMode: 'raw',
    metadata: {},
    always: false,
    os: [],
    requires: { bins: [], anyBins: [], env: [], config: [], ...requires },
    skillKey: name,
    install: [],
    body: '',
    bodyLine: 1,
    ...over,
  };
}

describeDocker('gating in the sandbox image', () => {
  const docker = new Docker();
  const backend = new DockerBackend({ host: process.env.DOCKER_HOST });
  const alias = `skilldock-test/gating-alias:${RUN}`;
  let image = '';
  let ts: TestServices;
  let configId = '';
  const configName = `gating-${RUN}`;

  /** Probe containers this run created, from the engine's event log (the stream ends at `until`). */
  /**
   * Probe containers created in this run, from the engine's events. A loaded engine can log an
   * event a moment after the create returned, so a count below `expected` is read again a few
   * times; a count above it is final at once.
   */
  /**
   * Probe containers created so far, counted from the engine's live event stream (opened before the
   * first probe). A query of past events would miss some: the engine keeps only its last 256, and
   * other test files fill them.
   */
  let creates = 0;
  let events: NodeJS.ReadableStream | undefined;
  async function probeCreates(expected?: number): Promise<number> {
    for (let i = 0; expected !== undefined && creates < expected && i < 20; i++) await new Promise((r) => setTimeout(r, 150));
    return creates;
  }

  const probesLeft = async (labels: string[]) => docker.listContainers({ all: true, filters: { label: [`${PROBE_LABEL}=true`, ...labels] } });

  beforeAll(async () => {
    events = (await docker.getEvents({
      filters: { type: ['container'], event: ['create'], label: [`${TEST_LABEL}=${RUN}`, `${PROBE_LABEL}=true`] },
    })) as NodeJS.ReadableStream;
    let pending = '';
    events.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      creates += lines.filter((l) => l.trim()).length;
    });
    image = await ensureBusyboxImage(docker);
    await docker.getImage(image).tag({ repo: alias.split(':')[0], tag: RUN });
    ts = await startTestServices({ worker: false });
    const s = ts.services;
    const deps = { db: s.database.db, secrets: s.secrets, usage: s.sandboxUsage, validate: { tlsRoots: [], workspaceRoots: [] } };
    const cfg = await createConfig(deps, actor, {
      name: configName,
      backend: 'docker',
      description: '',
      config: { image, host: process.env.DOCKER_HOST ?? '', memoryLimitMb: 128, pidsLimit: 100, cpuLimit: 0.5 },
    } as never);
    await s.database.db.update(sandboxConfigs).set({ enabled: true }).where(eq(sandboxConfigs.id, cfg.id));
    configId = cfg.id;
  }, 120_000);

  afterAll(async () => {
    (events as unknown as { destroy?: () => void } | undefined)?.destroy?.();
    for (const filter of [`${TEST_LABEL}=${RUN}`, `io.skilldock.config-id=${configId}`])
      for (const c of await docker.listContainers({ all: true, filters: { label: [filter] } }))
        await docker
          .getContainer(c.Id)
          .remove({ force: true, v: true })
          .catch(() => {});
    await docker
      .getImage(alias)
      .remove()
      .catch(() => {});
    await ts?.stop();
  });

  it('refuses a hostile program name before any container is created', async () => {
    const cache = new ImageProbeCache();
    for (const bad of ['a;b', '$(id)', '-v', '../sh', 'a b'])
      await expect(probeImage(backend, image, { bins: ['sh', bad], labels: RUN_LABELS }, cache)).rejects.toMatchObject({ code: 'validation' });
    expect(cache.size).toBe(0);
    expect(await probeCreates()).toBe(0);
  });

  it('finds what the image has and misses what it lacks, and leaves no container behind', async () => {
    const cache = new ImageProbeCache();
    const probe = await probeImage(backend, image, { bins: ['sh', 'ls', 'ffprobe'], labels: RUN_LABELS }, cache);
    expect(probe.os).toBe('linux');
    expect(probe.imageId).toMatch(/^sha256:[a-f0-9]{64}$/);
    expect(probe.bins.sh).toMatch(/^\/.*\/sh$/);
    expect(probe.bins.ls).toMatch(/^\/.*\/ls$/);
    expect(probe.bins.ffprobe).toBeNull();
    expect(await probesLeft([`${TEST_LABEL}=${RUN}`])).toEqual([]);
    expect(await probeCreates(1)).toBe(1);

    const target = imageGatingTarget(probe, { label: 'busybox' });
    const gate = (m: SkillManifest) =>
      evaluateGating({
        manifest: m,
        source: 'managed',
        config: {},
        found: probe.bins as Record<string, string | null>,
        targetEnv: target.env,
        platform: target.platform,
      });
    expect(gate(manifest('media', { bins: ['ffprobe'] })).missing.bins).toEqual(['ffprobe']);
    expect(gate(manifest('lister', { anyBins: ['ffprobe', 'ls'] })).eligible).toBe(true);
  });

  it('answers a second call for the same image, by any of its names, without a container', async () => {
    const cache = new ImageProbeCache();
    const before = await probeCreates();
    await probeImage(backend, image, { bins: ['sh', 'ffprobe'], labels: RUN_LABELS }, cache);
    expect(await probeCreates(before + 1)).toBe(before + 1);
    const again = await probeImage(backend, image, { bins: ['ffprobe', 'sh'], labels: RUN_LABELS }, cache);
    const viaAlias = await probeImage(backend, alias, { bins: ['sh'], labels: RUN_LABELS }, cache);
    expect(again.bins).toEqual({ ffprobe: null, sh: expect.stringMatching(/\/sh$/) });
    expect(viaAlias.imageId).toBe(again.imageId);
    expect(await probeCreates(before + 1)).toBe(before + 1);
    // A bin never asked before does need the image again: the counter does see new probes.
    const more = await probeImage(backend, image, { bins: ['sh', 'tar'], labels: RUN_LABELS }, cache);
    expect(more.bins.tar).toMatch(/\/tar$/);
    expect(await probeCreates(before + 2)).toBe(before + 2);
    expect(await probesLeft([`${TEST_LABEL}=${RUN}`])).toEqual([]);
  });

  it('gates skills in a config: missing bins name the config, anyBins and env as a sandbox would have them', async () => {
    const s = ts.services;
    await setEnv(s.database.db, s.secrets, actor, { level: 'config', configId }, 'WX_TOKEN', 'value-never-read');
    const result = await gateSkillsInConfig({ ...s.sandboxes, probes: new ImageProbeCache() }, configId, [
      manifest('media', { bins: ['ffprobe', 'sh'] }),
      manifest('lister', { anyBins: ['ffprobe', 'ls'] }),
      manifest('nothing-there', { anyBins: ['ffprobe', 'ffmpeg'] }),
      manifest('weather', { bins: ['sh'], env: ['WX_TOKEN'] }),
      manifest('keyed', { env: ['OTHER_TOKEN'] }),
    ]);
    expect(result).toMatchObject({ configId, configName, image });
    const by = Object.fromEntries(result.skills.map((r) => [r.name, r]));
    expect(by.media.eligible).toBe(false);
    expect(by.media.reasons).toEqual([`missing bin ffprobe in sandbox ${configName}`]);
    expect(by.lister).toMatchObject({ eligible: true, reasons: [] });
    expect(by['nothing-there'].reasons).toEqual([`needs one of: ffprobe, ffmpeg in sandbox ${configName}`]);
    expect(by.weather).toMatchObject({ eligible: true, reasons: [] });
    expect(by.keyed.eligible).toBe(false);
    expect(by.keyed.reasons[0]).toContain(`missing env OTHER_TOKEN in sandbox ${configName}`);
    expect(await probesLeft([`io.skilldock.config-id=${configId}`])).toEqual([]);
  });
});
