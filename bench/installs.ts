// Skill installs into Docker configs on a real engine, through the install service and its jobs,
// beside a same-run baseline (a bare container started, one exec, the unchanged container committed):
// - the stages of one install of a skill with three Python dependencies (wheels built here, served
//   by a PEP 503 index on a veth peer, the Debian python3 image with pip), next to a bare
//   `pip install` of the same wheels in a plain container of that image;
// - a no-op reinstall (same content hash: no job) against a real install;
// - snapshot size per installed skill, and N skills one job after another against one job.
import Docker from 'dockerode';
import { enqueueBulkInstall } from '../lib/installs/jobs/bulk-install';
import * as store from '../lib/installs/records/store';
import { installSkill, installSkills } from '../lib/installs/service';
import { updateRuntimeSettings } from '../lib/settings/store';
import { installActor as actor, echoSkill } from '../test/helpers/install-jobs';
import { ensurePipImage, removePipImage, startPipIndex } from '../test/helpers/pip-index';
import { ensureBusyboxImage } from '../test/helpers/sandbox-images';
import { buildWheel } from '../test/helpers/wheels';
import { fmt, nowMs } from './common';
import { BENCH_LABEL, type BenchKit, bareCommit, containersCreated, execTrue, type JobStages, jobStages, startBenchKit } from './installs-kit';
import { engine } from './sandboxes';

const PY_PACKAGES = ['skdbench-alpha', 'skdbench-beta', 'skdbench-gamma'];

export interface InstallsBench {
  runs: number;
  skills: number;
  baseline: { busyboxMs: number; busyboxCommitMs: number; pipImageMs: number };
  python: { runsMs: number[]; medianMs: number; stages: Record<string, number>; barePipMs: number; bytesAdded: number; ratio: number };
  noop: { realMs: number[]; noopMs: number[]; realMedianMs: number; noopMedianMs: number; containersCreated: number; ratio: number };
  sizes: { baseBytes: number; generations: { skills: number; sizeBytes: number; layers: number }[]; bytesPerSkill: number };
  sequence: { totalMs: number; perJobMs: number[]; stages: Record<string, number> };
  oneJob: { totalMs: number; stages: Record<string, number>; sizeBytes: number };
  bulkParent: { totalMs: number };
  ratio: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function medianStages(all: JobStages[]): Record<string, number> {
  const names = [...new Set(all.flatMap((s) => Object.keys(s.stages)))];
  return Object.fromEntries(names.map((n) => [n, median(all.map((s) => s.stages[n] ?? 0))]));
}

const sumStages = (all: JobStages[]) => {
  const out: Record<string, number> = {};
  for (const s of all) for (const [k, v] of Object.entries(s.stages)) out[k] = (out[k] ?? 0) + v;
  return out;
};

function pySkill(): Record<string, string> {
  const mods = PY_PACKAGES.map((p) => p.replace(/-/g, '_'));
  return {
    'SKILL.md': `---\nname: py-bench\ndescription: A skill with three Python dependencies.\nmetadata: { "openclaw": { "requires": { "bins": ["python3"] } } }\ndeps: [${PY_PACKAGES.map((p) => `pip:${p}`).join(', ')}]\n---\n\n# py-bench\n\nRun bench.py.\n`,
    'bench.py': `#!/usr/bin/env python3\n${mods.map((m) => `import ${m}`).join('\n')}\nprint(${mods.map((m) => `${m}.NAME`).join(', ')})\n`,
  };
}

async function runInstallJob(kit: BenchKit, configId: string, skillKey: string): Promise<{ ms: number; stages: JobStages }> {
  const deps = { database: kit.services.database, dataDir: kit.dataDir, sandboxes: kit.services.sandboxes };
  const t0 = nowMs();
  const r = await installSkill(deps, actor, configId, { skillKey });
  if (r.noop || !r.jobId) throw new Error(`${skillKey}: expected a real install, got a no-op`);
  const job = await kit.waitJob(r.jobId);
  const ms = nowMs() - t0;
  if (job.state !== 'succeeded') throw new Error(`install of ${skillKey} ended ${job.state}: ${job.error}`);
  return { ms, stages: await jobStages(kit.services, job) };
}

/** A bare `pip install` of the same wheels in a plain container of the pip image (default bridge). */
async function barePip(docker: Docker, image: string, index: { url: string; ip: string }): Promise<number> {
  const c = await docker.createContainer({
    Image: image,
    Entrypoint: ['sleep'],
    Cmd: ['infinity'],
    Labels: { [BENCH_LABEL]: 'true' },
    HostConfig: { Init: true },
  });
  try {
    await c.start();
    const t0 = nowMs();
    await execTrue(c, [
      'python3',
      '-m',
      'pip',
      'install',
      '--no-input',
      '--disable-pip-version-check',
      '--break-system-packages',
      '--index-url',
      index.url,
      '--trusted-host',
      index.ip,
      ...PY_PACKAGES,
    ]);
    return nowMs() - t0;
  } finally {
    await c.remove({ force: true, v: true }).catch(() => {});
  }
}

async function pythonSection(docker: Docker, kit: BenchKit, runs: number, wheelDir: string) {
  const wheels = [];
  for (const p of PY_PACKAGES) {
    const mod = p.replace(/-/g, '_');
    wheels.push(await buildWheel(wheelDir, { name: p, version: '1.0.0', modules: { [`${mod}/__init__.py`]: `NAME = ${JSON.stringify(p)}\n` } }));
  }
  const index = await startPipIndex(docker, wheels, { [BENCH_LABEL]: 'true' });
  let image: string | null = null;
  try {
    image = await ensurePipImage(docker);
    await updateRuntimeSettings(kit.services.database.db, actor, { pipIndexUrl: index.url });
    const skill = await kit.storeSkill('py-bench', pySkill());
    const baseBytes = (await docker.getImage(image).inspect()).Size;
    const bare: number[] = [];
    const commits: number[] = [];
    const all: { ms: number; stages: JobStages; bytes: number }[] = [];
    for (let i = 0; i <= runs; i++) {
      bare.push(await barePip(docker, image, index));
      commits.push((await bareCommit(docker, image)).totalMs);
      const cfg = await kit.newConfig('bench-py', { image, memoryMb: 512, allowOut: [index.subnet] });
      const r = await runInstallJob(kit, cfg, skill.key);
      const active = await store.activeImage(kit.services.database.db, cfg);
      all.push({ ...r, bytes: (active?.sizeBytes ?? 0) - baseBytes });
    }
    // Run 0 is the warm-up.
    const kept = all.slice(1);
    return {
      pipImageMs: median(commits.slice(1)),
      python: {
        runsMs: kept.map((r) => r.ms),
        medianMs: median(kept.map((r) => r.ms)),
        stages: medianStages(kept.map((r) => r.stages)),
        barePipMs: median(bare.slice(1)),
        bytesAdded: median(kept.map((r) => r.bytes)),
        ratio: 0,
      },
    };
  } finally {
    if (image) await removePipImage(docker, image).catch(() => {});
    await index.stop();
  }
}

export async function installsBench(runs: number, skills: number): Promise<InstallsBench | { skipped: string }> {
  const e = await engine();
  if ('skip' in e) return { skipped: e.skip };
  if (e.host) process.env.DOCKER_HOST = e.host;
  const docker = new Docker();
  const kit = await startBenchKit(docker);
  const wheelDir = `${kit.dataDir}/wheels`;
  try {
    const busybox = await ensureBusyboxImage(docker);
    const deps = { database: kit.services.database, dataDir: kit.dataDir, sandboxes: kit.services.sandboxes };
    const db = kit.services.database.db;

    const baseRuns: { totalMs: number; commitMs: number }[] = [];
    for (let i = 0; i <= runs; i++) baseRuns.push(await bareCommit(docker, busybox));
    const baseline = { busyboxMs: median(baseRuns.slice(1).map((b) => b.totalMs)), busyboxCommitMs: median(baseRuns.slice(1).map((b) => b.commitMs)) };

    const py = await pythonSection(docker, kit, runs, wheelDir);
    py.python.ratio = py.python.medianMs / py.pipImageMs;

    // No-op reinstall: the same content again, right after each real install.
    const noopCfg = await kit.newConfig('bench-noop', { image: busybox });
    const real: number[] = [];
    const noops: number[] = [];
    const created: string[] = [];
    for (let i = 0; i <= runs; i++) {
      const s = await kit.storeSkill(`noop-${i}`, echoSkill(`noop-${i}`));
      const r = await runInstallJob(kit, noopCfg, s.key);
      const t0 = nowMs();
      const again = await installSkill(deps, actor, noopCfg, { skillKey: s.key });
      const ms = nowMs() - t0;
      if (!again.noop || again.jobId) throw new Error(`reinstall of ${s.key} was not a no-op`);
      created.push(...(await containersCreated(docker, t0, nowMs())));
      if (i === 0) continue;
      real.push(r.ms);
      noops.push(ms);
    }

    // N skills into a config one job after another; the snapshot's size after each.
    const catalog: store.CatalogSkill[] = [];
    for (let i = 0; i < skills; i++) catalog.push(await kit.storeSkill(`seq-${i}`, echoSkill(`seq-${i}`)));
    const keys = catalog.map((s) => s.key);
    const seqCfg = await kit.newConfig('bench-seq', { image: busybox });
    const baseBytes = (await docker.getImage(busybox).inspect()).Size;
    const generations: InstallsBench['sizes']['generations'] = [];
    const perJob: number[] = [];
    const seqStages: JobStages[] = [];
    const t0 = nowMs();
    for (const [i, key] of keys.entries()) {
      const r = await runInstallJob(kit, seqCfg, key);
      perJob.push(r.ms);
      seqStages.push(r.stages);
      const active = await store.activeImage(db, seqCfg);
      generations.push({ skills: i + 1, sizeBytes: active?.sizeBytes ?? 0, layers: active?.layers ?? 0 });
    }
    const seqMs = nowMs() - t0;

    // The same N skills into a fresh config as one install job.
    const oneCfg = await kit.newConfig('bench-one', { image: busybox });
    const t1 = nowMs();
    const one = await installSkills(deps, actor, oneCfg, { skillKeys: keys });
    if (!one.jobId || one.errors.length) throw new Error(`one-job install refused: ${JSON.stringify(one.errors)}`);
    const oneJob = await kit.waitJob(one.jobId);
    const oneMs = nowMs() - t1;
    if (oneJob.state !== 'succeeded') throw new Error(`one-job install ended ${oneJob.state}: ${oneJob.error}`);
    const oneActive = await store.activeImage(db, oneCfg);

    // And through the bulk parent (skill.install.bulk over one child of N installs).
    const bulkCfg = await kit.newConfig('bench-bulk', { image: busybox });
    const t2 = nowMs();
    const ids: string[] = [];
    for (const skill of catalog) ids.push((await store.beginInstall(db, actor, { configId: bulkCfg, skill })).install.id);
    const tree = await enqueueBulkInstall(kit.services.database, actor, [{ configId: bulkCfg, installIds: ids }]);
    const parent = await kit.waitJob(tree.parent.id);
    const bulkMs = nowMs() - t2;
    if (parent.state !== 'succeeded') throw new Error(`bulk install ended ${parent.state}: ${parent.error}`);

    const sizes = generations.map((g) => g.sizeBytes);
    return {
      runs,
      skills,
      baseline: { ...baseline, pipImageMs: py.pipImageMs },
      python: py.python,
      noop: {
        realMs: real,
        noopMs: noops,
        realMedianMs: median(real),
        noopMedianMs: median(noops),
        containersCreated: created.length,
        ratio: median(noops) / median(real),
      },
      sizes: { baseBytes, generations, bytesPerSkill: (sizes[sizes.length - 1] - baseBytes) / sizes.length },
      sequence: { totalMs: seqMs, perJobMs: perJob, stages: sumStages(seqStages) },
      oneJob: { totalMs: oneMs, stages: (await jobStages(kit.services, oneJob)).stages, sizeBytes: oneActive?.sizeBytes ?? 0 },
      bulkParent: { totalMs: bulkMs },
      ratio: seqMs / oneMs,
    };
  } finally {
    await kit.stop();
    await e.stop();
  }
}

const stageLine = (s: Record<string, number>) =>
  Object.entries(s)
    .map(([k, v]) => `${k} ${fmt(v, 0)}`)
    .join(', ');

export function describeInstalls(b: InstallsBench): string[] {
  const kb = (n: number) => `${fmt(n / 1024, 1)} KiB`;
  const p = b.python;
  return [
    `baseline (bare container: create+start, exec \`true\`, commit unchanged, remove): busybox ${fmt(b.baseline.busyboxMs, 0)} ms (commit ${fmt(b.baseline.busyboxCommitMs, 0)} ms), python3+pip image ${fmt(b.baseline.pipImageMs, 0)} ms`,
    `\n-- One skill with three Python dependencies (3 wheels from a served PEP 503 index; fresh config each; median of ${b.runs} after 1 warm-up) --`,
    `install (call → job succeeded): ${fmt(p.medianMs, 0)} ms  [${p.runsMs.map((x) => fmt(x, 0)).join(', ')}], ×${fmt(p.ratio, 1)} of the bare container`,
    `stages (median ms): ${stageLine(p.stages)}`,
    `bare \`pip install\` of the same 3 wheels in a plain container: ${fmt(p.barePipMs, 0)} ms (the deps stage also makes the venv; verify imports each module)`,
    `snapshot grew by ${kb(p.bytesAdded)} over the base image`,
    `\n-- No-op reinstall (same content hash) vs a real install of a busybox skill (median of ${b.runs}) --`,
    `real install (call → job succeeded): ${fmt(b.noop.realMedianMs, 0)} ms; no-op: ${fmt(b.noop.noopMedianMs, 1)} ms, no job, ${b.noop.containersCreated} containers created; ratio ×${fmt(b.noop.ratio, 4)}`,
    `\n-- ${b.skills} busybox skills into one config --`,
    `one by one (${b.skills} jobs in sequence): ${fmt(b.sequence.totalMs, 0)} ms, per job ${b.sequence.perJobMs.map((x) => fmt(x, 0)).join(', ')} ms`,
    `  summed stages: ${stageLine(b.sequence.stages)}`,
    `one job with ${b.skills} installIds: ${fmt(b.oneJob.totalMs, 0)} ms; stages: ${stageLine(b.oneJob.stages)}`,
    `bulk parent (skill.install.bulk → one child of ${b.skills}): ${fmt(b.bulkParent.totalMs, 0)} ms`,
    `ratio: one by one ×${fmt(b.ratio, 2)} of one job`,
    `snapshot size: base ${kb(b.sizes.baseBytes)}; after 1…${b.skills} skills +${b.sizes.generations.map((g) => kb(g.sizeBytes - b.sizes.baseBytes)).join(', +')} (layers ${b.sizes.generations.map((g) => g.layers).join(', ')}); ${kb(b.sizes.bytesPerSkill)} per skill; one job of ${b.skills}: +${kb(b.oneJob.sizeBytes - b.sizes.baseBytes)}`,
  ];
}
