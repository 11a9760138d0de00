// One new snapshot generation of a config, built in one maintenance container: from the active
// image (or from the base image, with the skills it held installed again), skill folders removed,
// skills installed one after another, the result committed, and the config switched to it in one
// transaction with whatever records the caller moves. An install that fails is put back as it was
// and fails alone; anything else fails the whole build and leaves the pointer where it was.
import type { AppDb } from '@/db/client';
import type { ImageSkill } from '@/db/schema';
import { AppError } from '../../core/errors';
import type { JobContext } from '../../jobs/types';
import type { ConfigRow } from '../../sandbox/config/view';
import type { DockerBackend } from '../../sandbox/docker/backend';
import { backendForConfig, sandboxSpecFor } from '../../sandbox/factory';
import { activateImage, markImageDeleted, planImage, type SandboxImage } from '../../sandbox/images/images';
import type { InstanceDeps } from '../../sandbox/instances/service';
import { skillStepEnv } from '../steps/skill-step-env';
import { installSkillInto, keepSkillFolder, restoreSkillFolder, type SkillFailure, type SkillRef } from '../steps/skill-steps';
import { inspectSnapshot, LAYER_REBUILD_AT } from './image-health';
import { bundleWorkbench, dockerWorkbench, type Workbench } from './workbench';

export interface BuildDeps extends InstanceDeps {
  /** Where the managed skill store lives. */
  dataDir: string;
  /** Layers from which a build starts from the base image instead of stacking (default LAYER_REBUILD_AT). */
  layerRebuildAt?: number;
}

export interface BuildInstall extends SkillRef {
  installId: string;
}

/** A failure of the build as a whole, with its typed reason. */
export class BuildError extends AppError {
  constructor(
    readonly reason: string,
    message: string,
    readonly stage: string,
  ) {
    super('sandbox_error', message, { details: { reason, stage } });
  }
}

/** The maintenance label of the container a job builds in: boot recovery spares those of live jobs. */
export const maintenanceRunId = (kind: string, jobId: string): string => `${kind}-${jobId}`.replace(/[^A-Za-z0-9_.-]/g, '-').slice(0, 64);

export interface BuildSource {
  /** The image the build starts from: the active snapshot, or null for the base image. */
  from: SandboxImage | null;
  /** From the base image: what the new generation must hold again, installed first. */
  carry: SkillRef[];
}

/**
 * Where the next generation starts: the active image, unless it is missing (refused: starting from
 * base would silently lose its skills) or near the layer limit (from base, its skills reinstalled).
 */
export async function chooseSource(deps: BuildDeps, row: ConfigRow, active: SandboxImage | null, log: (line: string) => void): Promise<BuildSource> {
  if (!active) return { from: null, carry: [] };
  // A bundle is proven the way every sandbox gets it: all of its skills into a fresh sandbox.
  if (row.backend !== 'docker') return { from: null, carry: active.skills };
  const seen = await inspectSnapshot((backendForConfig(row, deps) as DockerBackend).conn, active);
  if (!seen.present)
    throw new BuildError('image_missing', `The active image of generation ${active.generation} is missing (${seen.problem}); rebuild from base.`, 'boot');
  const limit = deps.layerRebuildAt ?? LAYER_REBUILD_AT;
  if ((seen.layers ?? 0) >= limit) {
    log(`Generation ${active.generation} has ${seen.layers} layers (rebuild at ${limit}): building from the base image and reinstalling its skills.`);
    return { from: null, carry: active.skills };
  }
  return { from: active, carry: [] };
}

export interface BuildInput extends BuildSource {
  row: ConfigRow;
  removals: string[];
  installs: BuildInstall[];
}

export interface BuildHooks {
  /** Asked before each install: false when its record was stopped or taken over meanwhile. */
  wanted?(i: BuildInstall): Promise<boolean>;
  stage?(i: BuildInstall, stage: string, percent: number): Promise<void>;
  failed?(i: BuildInstall, f: SkillFailure): Promise<void>;
  /** The build as a whole reached a stage (boot, snapshot, switch). */
  phase?(stage: string, percent: number): Promise<void>;
  /** Inside the switch's transaction, once the new generation is active. */
  switched(tx: AppDb, generation: number, ok: BuildInstall[]): Promise<void>;
}

export interface BuildResult {
  committed: boolean;
  generation: number | null;
  imageRef: string | null;
  layers: number | null;
  ok: BuildInstall[];
  failed: { install: BuildInstall; failure: SkillFailure }[];
  skipped: BuildInstall[];
}

/** Where each stage starts within a skill's share of the progress bar. */
const STAGE_SHARE: Record<string, number> = { plan: 0, copy: 0.1, deps: 0.3, 'install-specs': 0.55, verify: 0.75, cleanup: 0.95 };

const span = (from: number, to: number, k: number, n: number) => Math.round(from + ((to - from) * k) / Math.max(n, 1));

/** What the new generation holds: the source's skills without the removed ones, the installed ones replacing theirs. */
function heldSkills(input: BuildInput, ok: BuildInstall[]): ImageSkill[] {
  const drop = new Set([...input.removals, ...ok.map((i) => i.skillKey)]);
  const kept = (input.from ? input.from.skills : input.carry).filter((s) => !drop.has(s.skillKey));
  return [...kept, ...ok.map(({ skillKey, version, contentHash }) => ({ skillKey, version, contentHash }))];
}

export async function buildGeneration(deps: BuildDeps, ctx: JobContext<unknown>, input: BuildInput, hooks: BuildHooks): Promise<BuildResult> {
  const db = deps.db;
  const result: BuildResult = { committed: false, generation: null, imageRef: null, layers: null, ok: [], failed: [], skipped: [] };
  const { row } = input;
  const { image: base, ...spec } = sandboxSpecFor(row, deps.secrets);
  const image = input.from?.plannedRef ?? base;
  const bundle = row.backend !== 'docker';
  let m: Workbench | null = null;
  let planned: SandboxImage | null = null;
  let activated = false;
  let running: { stop(): Promise<void> } | null = null;
  const onAbort = () => void running?.stop().catch(() => {});
  ctx.signal.addEventListener('abort', onAbort);
  // From the base image a removed skill is simply not installed again.
  const carry = input.carry.filter((s) => !input.removals.includes(s.skillKey));
  const units = carry.length + input.installs.length + (input.removals.length ? 1 : 0);
  let unit = 0;
  const skillHooks = (label: string, onStage: (stage: string, percent: number) => Promise<void>) => {
    const k = unit++;
    return {
      signal: ctx.signal,
      log: (line: string, stream?: 'stdout' | 'stderr' | 'info') => ctx.log(line, stream),
      running: (r: { stop(): Promise<void> } | null) => {
        running = r;
      },
      stage: async (stage: string) => {
        const percent = span(10, 80, k + (STAGE_SHARE[stage] ?? 0), units);
        ctx.progress(percent, `skill ${k + 1}/${units} ${stage}`);
        ctx.log(`skill ${k + 1}/${units} ${label}: ${stage}`);
        await onStage(stage, percent);
      },
    };
  };
  try {
    ctx.progress(5, 'boot');
    await hooks.phase?.('boot', 5);
    ctx.log(`Starting a maintenance sandbox from ${image}${input.from ? ` (generation ${input.from.generation})` : ' (base image)'}`);
    const open = { configId: row.id, image, spec, runId: maintenanceRunId(ctx.job.kind, ctx.job.id) };
    const backend = backendForConfig(row, deps);
    m = bundle ? await bundleWorkbench(backend, open) : await dockerWorkbench(backend as DockerBackend, open);
    const t = m.target;
    for (const s of carry) {
      const f = await installSkillInto(
        t,
        { db, dataDir: deps.dataDir, stepEnv: skillStepEnv(deps, row.id) },
        s,
        skillHooks(`${s.skillKey} ${s.version} (reinstall)`, async () => {}),
      );
      if (f) throw new BuildError('rebuild_failed', `Reinstalling ${s.skillKey} ${s.version} failed (${f.code}): ${f.message}`, f.stage);
    }
    if (input.removals.length) {
      const k = unit++;
      ctx.progress(span(10, 80, k, units), `skill ${k + 1}/${units} remove`);
      for (const name of input.removals) {
        ctx.log(`skill ${k + 1}/${units}: removing ${name}`);
        await t.removeSkill(name);
      }
    }
    for (const i of input.installs) {
      if (hooks.wanted && !(await hooks.wanted(i))) {
        ctx.log(`${i.skillKey}: its install is no longer running; skipped`);
        result.skipped.push(i);
        unit++;
        continue;
      }
      await keepSkillFolder(t, i.skillKey);
      let f: SkillFailure | null;
      try {
        f = await installSkillInto(
          t,
          { db, dataDir: deps.dataDir, stepEnv: skillStepEnv(deps, row.id) },
          i,
          skillHooks(`${i.skillKey} ${i.version}`, (s, p) => hooks.stage?.(i, s, p) ?? Promise.resolve()),
        );
      } catch (e) {
        if (ctx.signal.aborted) throw e;
        f = { code: 'install_error', message: e instanceof Error ? e.message : String(e), stage: 'install' };
      }
      if (!f) {
        result.ok.push(i);
        continue;
      }
      ctx.log(`${f.code}: ${f.message}`, 'stderr');
      ctx.log(`${i.skillKey}: failed; its folder is put back as it was (packages it installed stay)`);
      await restoreSkillFolder(t, i.skillKey);
      result.failed.push({ install: i, failure: f });
      await hooks.failed?.(i, f).catch((e) => ctx.log(`could not record the failure of ${i.skillKey}: ${String(e)}`, 'stderr'));
    }
    if (ctx.signal.aborted) throw ctx.signal.reason;
    // Nothing new to hold. From base a Docker build still renews a deep image; a bundle would be the same one again.
    if (input.installs.length && !result.ok.length && !input.removals.length && (bundle || !input.carry.length)) return result;

    ctx.progress(85, 'snapshot');
    await hooks.phase?.('snapshot', 85);
    planned = await planImage(db, row.id, { skills: heldSkills(input, result.ok), bundle });
    const p = planned;
    ctx.log(`Committing ${p.plannedRef} (generation ${p.generation})`);
    const mm = m;
    const snap = await ctx.critical(() => mm.commit(p));
    ctx.log(
      bundle
        ? `Recorded bundle ${snap.imageId}: new sandboxes of ${row.name} get its ${p.skills.length} skill(s) installed when they start`
        : `Committed ${snap.imageId} (${snap.layers} layers, ${snap.sizeBytes} bytes)`,
    );

    ctx.progress(95, 'switch');
    await hooks.phase?.('switch', 95);
    await ctx.critical(() =>
      db.transaction(async (tx) => {
        // Nested calls become savepoints of this one transaction: the pointer and the records move together.
        const inTx = tx as unknown as AppDb;
        await activateImage(inTx, p.id, { imageId: snap.imageId, sizeBytes: snap.sizeBytes, layers: snap.layers });
        await hooks.switched(inTx, p.generation, result.ok);
      }),
    );
    activated = true;
    ctx.progress(100, 'ready');
    Object.assign(result, { committed: true, generation: p.generation, imageRef: snap.ref, layers: snap.layers });
    return result;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    if (planned && !activated) await discardImage(db, m, planned).catch((e) => ctx.log(`could not discard ${planned?.plannedRef}: ${String(e)}`, 'stderr'));
    if (m) await m.close().catch((e) => ctx.log(`could not remove the maintenance sandbox: ${String(e)}`, 'stderr'));
  }
}

/** A planned image that never became active: its engine image (if the commit made one) and its record go. */
async function discardImage(db: AppDb, m: Workbench | null, planned: SandboxImage): Promise<void> {
  await m?.discard(planned.plannedRef);
  await markImageDeleted(db, planned.id);
}
