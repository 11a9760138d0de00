// The install records of catalog skills in sandbox configs. Every change of state goes through
// states.ts, runs in one transaction with the row locked, and is audited in that transaction.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { type InstallError, type ServedVersion, sandboxConfigs, sandboxImages, sandboxSkillInstalls } from '@/db/schema';
import { recordAudit } from '../../audit/audit';
import type { Actor } from '../../auth/actor';
import { AppError, notFound } from '../../core/errors';
import { newId } from '../../core/ids';
import type { InstallRecord } from './skill-usage';
import { type InstallEvent, requireNextState, servedVersion } from './states';

export * from '../../sandbox/images/images';
export * from './skill-usage';

type Tx = Parameters<Parameters<AppDb['transaction']>[0]>[0];
type Patch = Partial<typeof sandboxSkillInstalls.$inferInsert>;
const t = sandboxSkillInstalls;

/** The catalog version an install is of. */
export interface CatalogSkill {
  key: string;
  name: string;
  version: string;
  contentHash: string;
}

export const NOTES_MAX = 2000;
const SKILL_KEY = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,127}$/;
const VERSION = /^[A-Za-z0-9][A-Za-z0-9.+_-]{0,63}$/;
const CONTENT_HASH = /^[a-f0-9]{64}$/;

function invalid(path: string, message: string): AppError {
  return new AppError('validation', message, { issues: [{ path, message }] });
}

function checkSkill(s: CatalogSkill): CatalogSkill {
  if (!SKILL_KEY.test(s.key)) throw invalid('skill.key', 'A skill key is letters, digits, ".", "_" and "-" (at most 128).');
  const name = s.name.trim();
  if (!name || name.length > 200) throw invalid('skill.name', 'A skill name is 1 to 200 characters.');
  if (!VERSION.test(s.version)) throw invalid('skill.version', 'A version is letters, digits, ".", "+", "_" and "-" (at most 64).');
  if (!CONTENT_HASH.test(s.contentHash)) throw invalid('skill.contentHash', 'A content hash is 64 lower-case hex digits.');
  return { ...s, name };
}

function checkNotes(notes: string | null | undefined): string | null {
  const n = notes?.trim() ?? '';
  if (n.length > NOTES_MAX) throw invalid('notes', `Notes are at most ${NOTES_MAX} characters (these have ${n.length}); shorten them.`);
  return n || null;
}

const auditForm = (r: InstallRecord) => ({
  configId: r.configId,
  skillKey: r.skillKey,
  state: r.state,
  version: r.version,
  // Not "contentHash": the audit log masks keys that look like secrets, hashes included.
  contentDigest: r.contentHash,
  previousReady: r.previousReady ? { version: r.previousReady.version, contentDigest: r.previousReady.contentHash } : null,
});

async function lockRow(tx: Tx, id: string): Promise<InstallRecord> {
  const [row] = await tx.select().from(t).where(eq(t.id, id)).for('update');
  if (!row) throw notFound('This skill install');
  return row;
}

async function lockByKey(tx: Tx, configId: string, skillKey: string): Promise<InstallRecord | null> {
  const [row] = await tx
    .select()
    .from(t)
    .where(and(eq(t.configId, configId), eq(t.skillKey, skillKey)))
    .for('update');
  return row ?? null;
}

/** Validates `event` from the row's state, writes `patch` with the new state, audits from → to. */
async function apply(tx: Tx, actor: Actor, row: InstallRecord, event: InstallEvent, patch: Patch, reason?: string): Promise<InstallRecord> {
  const to = requireNextState(row.state, event, { removingFrom: row.removingFrom });
  if (to === null) throw new AppError('internal', `The ${event} event deletes the record; it cannot update it.`);
  const [after] = await tx
    .update(t)
    .set({ ...patch, state: to, updatedAt: sql`now()` })
    .where(eq(t.id, row.id))
    .returning();
  await recordAudit(tx, actor, {
    action: `sandbox.skill.${event}`,
    targetType: 'sandbox_skill_install',
    targetId: row.id,
    before: auditForm(row),
    after: { ...auditForm(after), ...(reason ? { reason } : {}) },
  });
  return after;
}

/** What agents get from the row now; a record being removed counts as what it was before. */
function servedBefore(row: InstallRecord): ServedVersion | null {
  return servedVersion({ ...row, state: row.state === 'removing' ? (row.removingFrom ?? 'ready') : row.state });
}

/** The columns of a fresh run of the installer over `skill`. */
type InstallPatch = Patch & Pick<typeof sandboxSkillInstalls.$inferInsert, 'skillName' | 'version' | 'contentHash'>;

function installPatch(row: InstallRecord | null, skill: CatalogSkill, notes: string | null, jobId: string | null): InstallPatch {
  return {
    skillName: skill.name,
    version: skill.version,
    contentHash: skill.contentHash,
    stage: null,
    percent: 0,
    jobId,
    notes,
    error: null,
    imageGeneration: null,
    previousReady: row ? servedBefore(row) : null,
    removingFrom: null,
    updatable: false,
  };
}

export interface BeginResult {
  /** True when this exact content is already ready: nothing was written. */
  noop: boolean;
  install: InstallRecord;
  /** The removal job an install took over from; the caller cancels it. */
  cancelJobId: string | null;
}

export interface BeginInstallInput {
  configId: string;
  skill: CatalogSkill;
  notes?: string | null;
  jobId?: string | null;
}

/**
 * Starts an install of a catalog version into a config. Over a ready record of another content
 * hash it is an update: the ready version stays in `previous_ready` and keeps serving.
 */
export async function beginInstall(db: AppDb, actor: Actor, input: BeginInstallInput): Promise<BeginResult> {
  const skill = checkSkill(input.skill);
  const notes = checkNotes(input.notes);
  const jobId = input.jobId ?? null;
  return db.transaction(async (tx) => {
    const [cfg] = await tx.select({ id: sandboxConfigs.id }).from(sandboxConfigs).where(eq(sandboxConfigs.id, input.configId));
    if (!cfg) throw notFound('This sandbox config');
    let row = await lockByKey(tx, input.configId, skill.key);
    if (!row) {
      requireNextState(null, 'install');
      const [created] = await tx
        .insert(t)
        .values({
          id: newId(),
          configId: input.configId,
          skillKey: skill.key,
          ...installPatch(null, skill, notes, jobId),
          state: 'installing',
          createdBy: actor.label,
        })
        .onConflictDoNothing()
        .returning();
      if (created) {
        await recordAudit(tx, actor, {
          action: 'sandbox.skill.install',
          targetType: 'sandbox_skill_install',
          targetId: created.id,
          before: null,
          after: auditForm(created),
        });
        return { noop: false, install: created, cancelJobId: null };
      }
      // Another install of the same skill into the same config committed first: judge against it.
      row = await lockByKey(tx, input.configId, skill.key);
      if (!row) throw new AppError('conflict', 'This install changed while it was being started; try again.');
    }
    if (row.state === 'ready' && row.contentHash === skill.contentHash) return { noop: true, install: row, cancelJobId: null };
    const cancelJobId = row.state === 'removing' ? row.jobId : null;
    const install = await apply(tx, actor, row, 'install', installPatch(row, skill, notes, jobId), notes ?? undefined);
    return { noop: false, install, cancelJobId };
  });
}

/** Installs the catalog's newer version over a record the catalog marked updatable. */
export async function beginUpdate(
  db: AppDb,
  actor: Actor,
  id: string,
  input: { skill: CatalogSkill; notes?: string | null; jobId?: string | null },
): Promise<BeginResult> {
  const skill = checkSkill(input.skill);
  const notes = checkNotes(input.notes);
  return db.transaction(async (tx) => {
    const row = await lockRow(tx, id);
    if (row.skillKey !== skill.key) throw invalid('skill.key', `This install is of "${row.skillKey}", not "${skill.key}".`);
    if (row.state === 'ready' && row.contentHash === skill.contentHash) return { noop: true, install: row, cancelJobId: null };
    const install = await apply(tx, actor, row, 'update', installPatch(row, skill, notes, input.jobId ?? null), notes ?? undefined);
    return { noop: false, install, cancelJobId: null };
  });
}

/** Installs the record's own version again (never the catalog's newer one), with the operator's notes. */
export async function retry(db: AppDb, actor: Actor, id: string, input: { notes?: string | null; jobId?: string | null } = {}): Promise<InstallRecord> {
  const notes = checkNotes(input.notes);
  return db.transaction(async (tx) => {
    const row = await lockRow(tx, id);
    const skill = { key: row.skillKey, name: row.skillName, version: row.version, contentHash: row.contentHash };
    return apply(tx, actor, row, 'retry', { ...installPatch(row, skill, notes, input.jobId ?? null), updatable: row.updatable }, notes ?? undefined);
  });
}

/** A stage reached by the running install or removal (not audited: it is not a change of state). */
/** Binds records begun without a job id to the job that now runs them; records bound elsewhere stay. */
export async function claimInstalls(db: AppDb, ids: string[], jobId: string): Promise<void> {
  if (!ids.length) return;
  const t = sandboxSkillInstalls;
  await db
    .update(t)
    .set({ jobId })
    .where(and(inArray(t.id, ids), eq(t.state, 'installing'), isNull(t.jobId)));
}

export async function recordProgress(db: AppDb, id: string, p: { stage: string; percent: number }): Promise<InstallRecord> {
  if (!Number.isInteger(p.percent) || p.percent < 0 || p.percent > 100) throw invalid('percent', 'A percentage is a whole number from 0 to 100.');
  if (!p.stage || p.stage.length > 64) throw invalid('stage', 'A stage name is 1 to 64 characters.');
  return db.transaction(async (tx) => {
    const row = await lockRow(tx, id);
    requireNextState(row.state, 'progress');
    const [after] = await tx.update(t).set({ stage: p.stage, percent: p.percent, updatedAt: sql`now()` }).where(eq(t.id, id)).returning();
    return after;
  });
}

/** The new version is in image `imageGeneration` and serves: the previous version is let go. */
export async function succeed(db: AppDb, actor: Actor, id: string, opts: { imageGeneration: number }): Promise<InstallRecord> {
  return db.transaction(async (tx) => {
    const row = await lockRow(tx, id);
    const [image] = await tx
      .select({ state: sandboxImages.state })
      .from(sandboxImages)
      .where(
        and(eq(sandboxImages.configId, row.configId), eq(sandboxImages.generation, opts.imageGeneration), inArray(sandboxImages.state, ['building', 'active'])),
      );
    if (!image)
      throw new AppError('invalid_state', `Generation ${opts.imageGeneration} of this config's image is not built or active; it cannot hold the install.`);
    return apply(tx, actor, row, 'succeed', { imageGeneration: opts.imageGeneration, previousReady: null, stage: 'done', percent: 100, error: null });
  });
}

/**
 * The install (or removal) failed. An install keeps `previous_ready`, which still serves; a
 * removal goes back to the state it began in, since the image did not change.
 */
export async function fail(db: AppDb, actor: Actor, id: string, error: { code: string; message: string; stage?: string | null }): Promise<InstallRecord> {
  return db.transaction(async (tx) => {
    const row = await lockRow(tx, id);
    const e: InstallError = { code: error.code.slice(0, 64), message: error.message.slice(0, 2000), stage: error.stage ?? row.stage };
    return apply(tx, actor, row, 'fail', { error: e, removingFrom: null }, e.message);
  });
}

/** Stops a running install: failed, with the job to cancel. Stopping a failed install changes nothing. */
export async function stop(db: AppDb, actor: Actor, id: string): Promise<{ install: InstallRecord; cancelJobId: string | null }> {
  return db.transaction(async (tx) => {
    const row = await lockRow(tx, id);
    if (requireNextState(row.state, 'stop') === row.state) return { install: row, cancelJobId: null };
    const error: InstallError = { code: 'stopped', message: `Stopped by ${actor.label}.`, stage: row.stage };
    const install = await apply(tx, actor, row, 'stop', { error }, error.message);
    return { install, cancelJobId: row.jobId };
  });
}

async function toggle(db: AppDb, actor: Actor, id: string, event: 'disable' | 'enable'): Promise<InstallRecord> {
  return db.transaction(async (tx) => {
    const row = await lockRow(tx, id);
    if (requireNextState(row.state, event) === row.state) return row;
    return apply(tx, actor, row, event, {});
  });
}

/** Hides a ready skill from agents; it stays in the image. */
export const disable = (db: AppDb, actor: Actor, id: string) => toggle(db, actor, id, 'disable');
export const enable = (db: AppDb, actor: Actor, id: string) => toggle(db, actor, id, 'enable');

/** Starts removing the skill from the config's image; the catalog copy stays. */
export async function beginRemove(db: AppDb, actor: Actor, id: string, opts: { jobId?: string | null } = {}): Promise<InstallRecord> {
  return db.transaction(async (tx) => {
    const row = await lockRow(tx, id);
    return apply(tx, actor, row, 'remove', { removingFrom: row.state, stage: null, percent: 0, error: null, jobId: opts.jobId ?? null });
  });
}

/** The image no longer holds the skill: the record goes. */
export async function finishRemove(db: AppDb, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await lockRow(tx, id);
    requireNextState(row.state, 'removed');
    await tx.delete(t).where(eq(t.id, id));
    await recordAudit(tx, actor, { action: 'sandbox.skill.removed', targetType: 'sandbox_skill_install', targetId: id, before: auditForm(row), after: null });
  });
}
