// The disk use of snapshot generations on a real engine: images committed on top of each other and
// on the base share layers, and the figure counts each layer once (checked against the bytes each
// commit really added).
import { randomBytes } from 'node:crypto';
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DockerBackend } from '@/lib/sandbox/docker/backend';
import { buildTar } from '@/lib/sandbox/docker/tar';
import { describeDocker } from '@/test/helpers/docker';
import { ensureBusyboxImage } from '@/test/helpers/sandbox-images';
import { engineDiskUse } from './disk-engine';

const RUN = randomBytes(6).toString('hex');
const REPO = `skilldock-test/disk-${RUN}`;
const LABELS = { 'io.skilldock.test-run': RUN };
// A layer holds its files plus a little tar and metadata overhead.
const SLACK = 16 * 1024;

describeDocker('generation disk use on Docker', () => {
  const docker = new Docker();
  const conn = new DockerBackend({ host: process.env.DOCKER_HOST, configId: `test-${RUN}` }).conn;
  let base = '';
  const ids: Record<string, string> = {};

  /** Commits `from` plus one file of `bytes` random bytes as REPO:tag; the container is never started. */
  async function commit(from: string, tag: string, bytes: number): Promise<string> {
    const c = await docker.createContainer({ Image: from, Cmd: ['true'], Labels: LABELS });
    try {
      await c.putArchive(buildTar([{ type: 'file', name: `layer-${tag}.bin`, data: randomBytes(bytes) }]), { path: '/' });
      const r = (await c.commit({ repo: REPO, tag })) as { Id: string };
      ids[tag] = r.Id;
      return r.Id;
    } finally {
      await c.remove({ force: true });
    }
  }

  beforeAll(async () => {
    base = await ensureBusyboxImage(docker);
  }, 120_000);

  afterAll(async () => {
    for (const tag of ['gen-3', 'gen-2', 'gen-1', 'gen-5', 'gen-4', 'gen-6'])
      await docker
        .getImage(`${REPO}:${tag}`)
        .remove({ force: true })
        .catch(() => {});
  });

  const rec = (generation: number, state: 'active' | 'superseded' | 'deleted' = 'superseded') => ({
    generation,
    state,
    imageId: ids[`gen-${generation}`] ?? null,
    plannedRef: `${REPO}:gen-${generation}`,
    sizeBytes: null,
  });

  it('counts the base and the layers stacked generations share once', async () => {
    // gen 2 is committed on gen 1; gen 3 is rebuilt from the base.
    const gen1 = await commit(base, 'gen-1', 300_000);
    await commit(gen1, 'gen-2', 200_000);
    await commit(base, 'gen-3', 100_000);
    const size = async (ref: string) => (await docker.getImage(ref).inspect()).Size;
    const naive = (await size(ids['gen-1'])) + (await size(ids['gen-2'])) + (await size(ids['gen-3']));

    const use = await engineDiskUse(conn, base, [rec(1), rec(2), rec(3, 'active'), rec(7, 'deleted')]);
    expect(use.error).toBeNull();
    expect(use.exact).toBe(true);
    expect(use.generations).toBe(3);
    expect(use.baseBytes).toBe(await size(base));
    const own = Object.fromEntries(use.perGeneration.map((g) => [g.generation, g.ownBytes]));
    expect(own[1]).toBeGreaterThanOrEqual(300_000);
    expect(own[1]).toBeLessThan(300_000 + SLACK);
    expect(own[2]).toBeGreaterThanOrEqual(200_000);
    expect(own[2]).toBeLessThan(200_000 + SLACK);
    expect(own[3]).toBeGreaterThanOrEqual(100_000);
    expect(own[3]).toBeLessThan(100_000 + SLACK);
    expect(use.bytes).toBe(use.baseBytes + own[1] + own[2] + own[3]);
    // The sum of image sizes counts the base three times and gen 1's layer twice.
    expect(naive - (use.bytes ?? 0)).toBeGreaterThanOrEqual(2 * use.baseBytes + 300_000);
  }, 120_000);

  it('asks /system/df where two generations share the layers of a removed one', async () => {
    // gen 4 is committed and then its name removed (as collection does); gen 5 and gen 6 were both built on it.
    const gen4 = await commit(base, 'gen-4', 250_000);
    await commit(gen4, 'gen-5', 50_000);
    await commit(gen4, 'gen-6', 60_000);
    await docker.getImage(`${REPO}:gen-4`).remove();

    const use = await engineDiskUse(conn, base, [rec(4, 'deleted'), rec(5), rec(6, 'active')]);
    expect(use.error).toBeNull();
    expect(use.exact).toBe(true);
    const own = Object.fromEntries(use.perGeneration.map((g) => [g.generation, g.ownBytes]));
    expect(own[5]).toBeGreaterThanOrEqual(50_000);
    expect(own[5]).toBeLessThan(50_000 + SLACK);
    expect(own[6]).toBeGreaterThanOrEqual(60_000);
    expect(own[6]).toBeLessThan(60_000 + SLACK);
    // gen 4's 250 kB layer is counted once, not once for each of gen 5 and gen 6.
    const shared = (use.bytes ?? 0) - use.baseBytes - own[5] - own[6];
    expect(shared).toBeGreaterThanOrEqual(250_000);
    expect(shared).toBeLessThan(250_000 + SLACK);
  }, 120_000);

  it('says why when the engine cannot be asked, and counts nothing', async () => {
    const gone = new DockerBackend({ host: `unix:///tmp/skilldock-no-engine-${RUN}.sock`, configId: `test-${RUN}` }).conn;
    const use = await engineDiskUse(gone, base, [rec(1)]);
    expect(use.bytes).toBeNull();
    expect(use.error).toBeTruthy();
  });
});
