// Parts of the install benchmark: the real Services on a fresh database, Docker configs, catalog
// skills, the stages of a finished install job read back from its log timestamps, and the
// same-run baseline (a bare container: start, one exec, commit of the unchanged container).
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import { sandboxConfigs } from '../db/schema';
import { loadConfig } from '../lib/core/config';
import type { CatalogSkill } from '../lib/installs/records/store';
import { getJob, readJobLogs } from '../lib/jobs/queue';
import type { JobRow } from '../lib/jobs/types';
import { createConfig } from '../lib/sandbox/config/store';
import { type Services, startServices, stopServices } from '../lib/services';
import { managedStore } from '../lib/skills/service/roots';
import { createStagingDir } from '../lib/skills/store';
import { freshPostgresDatabase } from '../test/helpers/db';
import { installActor } from '../test/helpers/install-jobs';
import { nowMs } from './common';

export const BENCH_LABEL = 'io.skilldock.bench';

export interface BenchKit {
  services: Services;
  dataDir: string;
  newConfig(name: string, opts: { image: string; memoryMb?: number; allowOut?: string[] }): Promise<string>;
  storeSkill(slug: string, files: Record<string, string>): Promise<CatalogSkill>;
  waitJob(id: string): Promise<JobRow>;
  stop(): Promise<void>;
}

/** Services with the worker on a temp data dir: PGlite, or a new database on BENCH_DATABASE_URL's cluster. */
export async function startBenchKit(docker: Docker): Promise<BenchKit> {
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'skilldock-bench-installs-'));
  const pg = process.env.BENCH_DATABASE_URL ? await freshPostgresDatabase(process.env.BENCH_DATABASE_URL) : null;
  const config = loadConfig({
    SKILLDOCK_DATA_DIR: dataDir,
    ...(pg?.url ? { DATABASE_URL: pg.url } : {}),
    LOG_LEVEL: 'warn',
    SKILLDOCK_NFT_TABLE: `skilldock_b${randomBytes(5).toString('hex')}`,
    SKILLDOCK_DNS_UPSTREAMS: '127.0.0.1:9',
  });
  const services = await startServices({ config, worker: true });
  const db = services.database.db;
  const configs: string[] = [];
  return {
    services,
    dataDir,
    async newConfig(name, opts) {
      const deps = { db, secrets: services.secrets, usage: services.sandboxUsage, validate: { tlsRoots: [], workspaceRoots: [] } };
      const cfg = await createConfig(deps, installActor, {
        name: `${name}-${randomBytes(3).toString('hex')}`,
        backend: 'docker',
        description: '',
        config: { image: opts.image, host: process.env.DOCKER_HOST ?? '', memoryLimitMb: opts.memoryMb ?? 128, pidsLimit: 200, cpuLimit: 1 },
        ...(opts.allowOut ? { network: { allowOut: opts.allowOut } } : {}),
      } as never);
      await db.update(sandboxConfigs).set({ enabled: true }).where(eq(sandboxConfigs.id, cfg.id));
      configs.push(cfg.id);
      return cfg.id;
    },
    async storeSkill(slug, files) {
      const st = managedStore(dataDir);
      const dir = await createStagingDir(st);
      for (const [rel, text] of Object.entries(files)) {
        await fsp.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
        await fsp.writeFile(path.join(dir, rel), text, { mode: /\.(sh|py)$/.test(rel) ? 0o755 : 0o644 });
      }
      const v = await services.skillStore.install({ slug, stagedDir: dir, force: true });
      return { key: slug, name: slug, version: v.version, contentHash: v.contentHash };
    },
    async waitJob(id) {
      // A bound on waiting, not a timing figure.
      for (let i = 0; i < 20 * 60 * 10; i++) {
        const j = await getJob(services.database, id);
        if (j.state === 'succeeded' || j.state === 'failed' || j.state === 'canceled') return j;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`job ${id} did not end within 10 minutes`);
    },
    async stop() {
      try {
        for (const cfg of configs) await removeConfigLeftovers(docker, cfg);
        await services.network.enforcer?.close({ removeRules: true, removeNetworks: true });
        await stopServices(services);
      } finally {
        await pg?.cleanup();
        await fsp.rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** Every container and snapshot image a config left on the engine (a parent image only goes after its children). */
async function removeConfigLeftovers(docker: Docker, configId: string): Promise<void> {
  const label = `io.skilldock.config-id=${configId}`;
  for (const c of await docker.listContainers({ all: true, filters: { label: [label] } }))
    await docker
      .getContainer(c.Id)
      .remove({ force: true, v: true })
      .catch(() => {});
  for (let pass = 0; pass < 20; pass++) {
    const images = await docker.listImages({ all: true, filters: { label: [label] } });
    if (!images.length) return;
    for (const img of images)
      await docker
        .getImage(img.Id)
        .remove({ force: true })
        .catch(() => {});
  }
}

export interface JobStages {
  totalMs: number;
  /** Stage name → ms, in the order the job went through them (a stage of several skills summed). */
  stages: Record<string, number>;
}

/** A log line that starts a stage, and the stage's name. */
function stageOf(line: string): string | null {
  if (line.startsWith('Installing ')) return 'source';
  if (line.startsWith('Starting a maintenance sandbox')) return 'boot';
  const skill = /^skill \d+\/\d+ [^:]*: ([a-z-]+)$/.exec(line);
  if (skill) return skill[1];
  if (line.startsWith('Committing ')) return 'commit';
  if (line.startsWith('Committed ')) return 'switch';
  if (/ is ready in generation \d+\.$/.test(line)) return 'finish';
  return null;
}

/** The stages of an ended install job from the timestamps of its log lines and of its row. */
export async function jobStages(services: Services, job: JobRow): Promise<JobStages> {
  const marks: { name: string; at: number }[] = [{ name: 'queue', at: job.createdAt.getTime() }];
  if (job.startedAt) marks.push({ name: 'lock', at: job.startedAt.getTime() });
  for (let after = 0; ; ) {
    const rows = await readJobLogs(services.database, job.id, after, 5000);
    if (!rows.length) break;
    after = rows[rows.length - 1].seq;
    for (const r of rows) {
      const name = stageOf(r.line);
      if (name && !(name === 'finish' && marks.at(-1)?.name === 'finish')) marks.push({ name, at: r.at.getTime() });
    }
  }
  const end = (job.finishedAt ?? new Date()).getTime();
  const stages: Record<string, number> = {};
  for (const [i, m] of marks.entries()) stages[m.name] = (stages[m.name] ?? 0) + ((marks[i + 1]?.at ?? end) - m.at);
  return { totalMs: end - job.createdAt.getTime(), stages };
}

/**
 * What any snapshot build must pay at least, on the same image: a container started the way a
 * maintenance sandbox is (sleeping, with init), one exec, a commit of the unchanged container, and
 * the removal of both.
 */
export async function bareCommit(docker: Docker, image: string): Promise<{ totalMs: number; commitMs: number }> {
  const t0 = nowMs();
  const c = await docker.createContainer({
    Image: image,
    Entrypoint: ['sleep'],
    Cmd: ['infinity'],
    Labels: { [BENCH_LABEL]: 'true' },
    HostConfig: { Init: true },
  });
  let ref: string | null = null;
  try {
    await c.start();
    await execTrue(c);
    const t1 = nowMs();
    const repo = 'skilldock-bench/bare-commit';
    const tag = randomBytes(5).toString('hex');
    await c.commit({ repo, tag, pause: true });
    ref = `${repo}:${tag}`;
    await docker.getImage(ref).inspect();
    const commitMs = nowMs() - t1;
    await c.remove({ force: true, v: true });
    await docker.getImage(ref).remove({ force: true });
    ref = null;
    return { totalMs: nowMs() - t0, commitMs };
  } finally {
    await c.remove({ force: true, v: true }).catch(() => {});
    if (ref)
      await docker
        .getImage(ref)
        .remove({ force: true })
        .catch(() => {});
  }
}

export async function execTrue(c: Docker.Container, argv = ['true']): Promise<string> {
  const exec = await c.exec({ Cmd: argv, AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      done();
    },
  });
  c.modem.demuxStream(stream, sink, sink);
  await new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', reject);
  });
  const r = await exec.inspect();
  const out = Buffer.concat(chunks).toString('utf8');
  if (r.ExitCode !== 0) throw new Error(`${argv.join(' ')} exited ${r.ExitCode}: ${out.slice(-2000)}`);
  return out;
}

/** Containers created on the engine between two instants (ms since the epoch; engine and bench share the clock). */
export async function containersCreated(docker: Docker, fromMs: number, toMs: number): Promise<string[]> {
  const stream = (await docker.getEvents({
    since: Math.floor(fromMs / 1000),
    until: Math.ceil(toMs / 1000) + 1,
    filters: { type: ['container'], event: ['create'] },
  })) as NodeJS.ReadableStream;
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  const events = text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { timeNano: number; Actor?: { Attributes?: Record<string, string> } });
  return events.filter((e) => e.timeNano / 1e6 >= fromMs && e.timeNano / 1e6 <= toMs).map((e) => e.Actor?.Attributes?.image ?? '?');
}
