// One skill install on Docker, stage by stage: a maintenance container from the config's current
// image, the plan's steps with every line in the job log, the snapshot, and the switch of the
// config's image pointer together with the record. The container always goes; the pointer only
// ever moves to an image that was committed whole.
import type { AppDb } from '@/db/client';
import type { Actor } from '../auth/actor';
import { AppError } from '../core/errors';
import type { JobContext } from '../jobs/types';
import type { DockerConfig } from '../sandbox/config/schema';
import { loadRow } from '../sandbox/config/store';
import type { DockerBackend } from '../sandbox/docker/backend';
import { runExec } from '../sandbox/docker/exec';
import { backendForConfig, sandboxSpecFor } from '../sandbox/factory';
import type { InstanceDeps } from '../sandbox/instances/service';
import { getRuntimeSettings } from '../settings/store';
import { managedStore } from '../skills/service/roots';
import { closeMaintenance, commitSnapshot, copySkill, type Maintenance, openMaintenance, runStep, type StepStream } from './docker-build';
import { type InstallPlan, type InstallStep, planInstall, SANDBOX_RUNTIME_ENV, type TargetTools } from './plan';
import { loadStoredSkill, type StoredSkill } from './skill-source';
import * as store from './store';
import { verificationFailure } from './verify';

export interface InstallRunDeps extends InstanceDeps {
  /** Where the managed skill store lives. */
  dataDir: string;
}

export interface InstallRunResult {
  installId: string;
  noop: boolean;
  imageGeneration: number | null;
  imageRef: string | null;
}

const PERCENT: Record<string, number> = {
  boot: 5,
  plan: 10,
  copy: 15,
  deps: 30,
  'install-specs': 50,
  verify: 70,
  cleanup: 80,
  snapshot: 85,
  switch: 95,
  ready: 100,
};
/** Output kept per step for the failure's reason (the log has all of it). */
const KEEP_CHARS = 64 * 1024;
const TOOLS = ['python3', 'pip', 'node', 'npm', 'apt-get', 'apk', 'uv', 'go', 'curl', 'wget', 'bash', 'unzip'] as const;
const BIN_NAME = /^[A-Za-z0-9._+-]{1,64}$/;
const NON_SYSTEM = new Set<string>(['pip', 'npm', 'github']);
const PROBE_SCRIPT = 'for b; do command -v "$b" >/dev/null 2>&1 && echo "$b"; done; exit 0';

/** A failure with its typed reason, already written to the record. */
class InstallFailure extends AppError {
  constructor(code: string, message: string, stage: string) {
    super('sandbox_error', message, { details: { reason: code, stage } });
  }
}

async function probeTools(m: Maintenance, bins: string[]): Promise<{ has: TargetTools; present: string[] }> {
  const names = [...new Set([...TOOLS, ...bins])];
  const r = await runExec(m.conn, m.containerId, {
    argv: ['sh', '-c', PROBE_SCRIPT, 'skilldock-probe', ...names],
    timeoutMs: 30_000,
    maxOutputBytes: 64 * 1024,
  });
  const present = new Set(r.stdout.split('\n').filter(Boolean));
  const has: TargetTools = {
    python3: present.has('python3'),
    pip: present.has('pip') || present.has('python3'),
    node: present.has('node'),
    npm: present.has('npm'),
    apt: present.has('apt-get'),
    apk: present.has('apk'),
    uv: present.has('uv'),
    go: present.has('go'),
    curl: present.has('curl'),
    wget: present.has('wget'),
    bash: present.has('bash'),
    unzip: present.has('unzip'),
  };
  return { has, present: bins.filter((b) => present.has(b)) };
}

/** How a step shows in the log: constant scripts by their name, not their text. */
function commandLine(step: InstallStep): string {
  const argv = step.argv[1] === '-c' && step.argv.length > 3 ? [step.argv[0], '-c', `<${step.argv[3]}>`, ...step.argv.slice(4)] : step.argv;
  return `$ ${argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' ')}`;
}

export async function runInstall(deps: InstallRunDeps, ctx: JobContext<{ installId: string }>, actor: Actor): Promise<InstallRunResult> {
  const db: AppDb = deps.db;
  const id = ctx.params.installId;
  const record = await store.getInstall(db, id);
  if (!record) throw new AppError('not_found', 'This skill install no longer exists.');
  if (record.state === 'ready') return { installId: id, noop: true, imageGeneration: record.imageGeneration, imageRef: null };
  if (record.state !== 'installing') throw new AppError('invalid_state', `This install is ${record.state}, not installing; retry it to run it again.`);
  let stage = 'boot';
  const enter = async (name: string) => {
    stage = name;
    ctx.progress(PERCENT[name] ?? 0, name);
    await store.recordProgress(db, id, { stage: name, percent: PERCENT[name] ?? 0 });
  };
  const failWith = async (code: string, message: string): Promise<never> => {
    await store.fail(db, actor, id, { code, message, stage });
    ctx.log(`${code}: ${message}`, 'stderr');
    throw new InstallFailure(code, message, stage);
  };

  let m: Maintenance | null = null;
  let planned: store.SandboxImage | null = null;
  let activated = false;
  let running: { stop(): Promise<void> } | null = null;
  const onAbort = () => void running?.stop().catch(() => {});
  ctx.signal.addEventListener('abort', onAbort);
  try {
    await enter('boot');
    const row = await loadRow(db, record.configId);
    if (row.backend !== 'docker') return await failWith('unsupported_backend', `Skill installs into ${row.backend} configs are not supported yet.`);
    let skill: StoredSkill;
    try {
      skill = await loadStoredSkill(managedStore(deps.dataDir), record.skillKey, record.version, record.contentHash);
    } catch (e) {
      return await failWith('skill_unavailable', (e as Error).message);
    }
    const active = await store.activeImage(db, row.id);
    const image = active?.plannedRef ?? (row.config as DockerConfig).image;
    const { image: _base, ...spec } = sandboxSpecFor(row, deps.secrets);
    const backend = backendForConfig(row, deps) as DockerBackend;
    ctx.log(`Starting a maintenance sandbox from ${image}${active ? ` (generation ${active.generation})` : ' (base image)'}`);
    m = await openMaintenance(backend, { configId: row.id, image, spec, runId: `install-${ctx.job.id}`.slice(0, 64) });

    await enter('plan');
    const wanted = [...skill.manifest.requires.bins, ...skill.manifest.requires.anyBins, ...skill.manifest.install.flatMap((s) => s.bins)];
    const systemNames = skill.deps.filter((d) => !NON_SYSTEM.has(d.spec.manager)).map((d) => d.spec.name);
    const target = await probeTools(
      m,
      [...wanted, ...systemNames].filter((b) => BIN_NAME.test(b)),
    );
    // A system dependency the image already has on its PATH (a shebang's sh, say) needs no package.
    const needed = skill.deps.filter((d) => NON_SYSTEM.has(d.spec.manager) || !target.present.includes(d.spec.name));
    for (const d of skill.deps) if (!needed.includes(d)) ctx.log(`${d.spec.name} is already in the image; no package needed`);
    const plan: InstallPlan = planInstall({
      skill: { name: record.skillKey, files: skill.planFiles, manifest: skill.manifest },
      deps: needed,
      settings: await getRuntimeSettings(db),
      target: { os: 'linux', has: target.has, presentBins: target.present },
    });
    for (const s of plan.skipped) ctx.log(`Skipping install spec ${s.index + 1} (${s.kind}): ${s.reason}`);
    if (!plan.ok) {
      const p = plan.problems[0];
      const more = plan.problems.length > 1 ? ` (and ${plan.problems.length - 1} more problems)` : '';
      for (const x of plan.problems) ctx.log(`${x.code}: ${x.message}`, 'stderr');
      return await failWith(p.code, `${p.message}${more}`);
    }
    if (plan.hostDirs.length) return await failWith('unsupported_install', 'Package indexes from host folders (find-links) are not copied into sandboxes yet.');

    for (const step of plan.steps) {
      if (step.stage !== stage) await enter(step.stage);
      if (ctx.signal.aborted) throw ctx.signal.reason;
      ctx.log(`# ${step.title}`);
      if (step.upload?.kind === 'skill-archive') {
        // The Docker side's own copy: one archive unpacked beside the folder, then swapped in.
        ctx.log(`copying ${skill.files.length} files to ${plan.skillDir}`);
        await copySkill(m, { name: record.skillKey, files: skill.files });
        continue;
      }
      ctx.log(commandLine(step));
      const out = { stdout: '', stderr: '' };
      const onLine = (s: StepStream, line: string) => {
        ctx.log(line, s);
        if (out[s].length < KEEP_CHARS) out[s] += `${line}\n`;
      };
      const run = runStep(m, step, onLine);
      running = run;
      const result = await run.done.finally(() => {
        running = null;
      });
      if (result.stopped || ctx.signal.aborted) throw ctx.signal.reason ?? new Error('cancel');
      const failure = verificationFailure(step, { exitCode: result.exitCode, timedOut: result.timedOut, ...out });
      if (failure) return await failWith(failure.code, failure.detail ? `${failure.reason} — ${failure.detail}` : failure.reason);
    }

    await enter('snapshot');
    const skills = [
      ...(active?.skills ?? []).filter((s) => s.skillKey !== record.skillKey),
      { skillKey: record.skillKey, version: record.version, contentHash: record.contentHash },
    ];
    planned = await store.planImage(db, row.id, { skills });
    ctx.log(`Committing ${planned.plannedRef} (generation ${planned.generation})`);
    const snap = await ctx.critical(() =>
      commitSnapshot(m as Maintenance, { plannedRef: planned!.plannedRef, generation: planned!.generation, env: SANDBOX_RUNTIME_ENV }),
    );
    ctx.log(`Committed ${snap.imageId} (${snap.layers} layers, ${snap.sizeBytes} bytes)`);

    await enter('switch');
    const generation = planned.generation;
    const imageRowId = planned.id;
    await ctx.critical(() =>
      db.transaction(async (tx) => {
        // Nested calls become savepoints of this one transaction: the pointer and the record move together.
        const inTx = tx as unknown as AppDb;
        await store.activateImage(inTx, imageRowId, { imageId: snap.imageId, sizeBytes: snap.sizeBytes, layers: snap.layers });
        await store.succeed(inTx, actor, id, { imageGeneration: generation });
      }),
    );
    activated = true;
    ctx.progress(100, 'ready');
    ctx.log(`${record.skillKey} ${record.version} is ready in generation ${generation}.`);
    return { installId: id, noop: false, imageGeneration: generation, imageRef: snap.ref };
  } catch (e) {
    if (e instanceof InstallFailure) throw e;
    if (ctx.signal.aborted) {
      const why = ctx.signal.reason instanceof Error ? ctx.signal.reason.message : String(ctx.signal.reason);
      if (why === 'cancel') await store.stop(db, actor, id).catch(() => {});
      else await store.fail(db, actor, id, { code: 'interrupted', message: `The install was interrupted (${why}).`, stage }).catch(() => {});
      throw new AppError('invalid_state', `The install was ${why === 'cancel' ? 'stopped' : `interrupted (${why})`} during ${stage}.`);
    }
    const message = e instanceof Error ? e.message : String(e);
    await store.fail(db, actor, id, { code: 'install_error', message, stage }).catch(() => {});
    throw e;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    if (planned && !activated) await discardImage(db, m, planned).catch((e) => ctx.log(`could not discard ${planned?.plannedRef}: ${String(e)}`, 'stderr'));
    if (m) await closeMaintenance(m).catch((e) => ctx.log(`could not remove the maintenance sandbox: ${String(e)}`, 'stderr'));
  }
}

/** A planned image that never became active: its engine image (if the commit made one) and its record go. */
async function discardImage(db: AppDb, m: Maintenance | null, planned: store.SandboxImage): Promise<void> {
  if (m) {
    await m.conn.api
      .getImage(planned.plannedRef)
      .remove()
      .catch((e: { statusCode?: number }) => {
        if (e.statusCode !== 404) throw e;
      });
  }
  await store.markImageDeleted(db, planned.id);
}
