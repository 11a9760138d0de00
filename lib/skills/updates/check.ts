/**
 * The update check of imported skills: one cheap request per source, a newer version staged,
 * scanned and diffed (once per version found), the result recorded per skill, and — where the
 * policy says auto — a clean candidate applied through the normal import. A critical or failed
 * scan is never applied automatically.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { mapLimit } from '../../core/concurrency';
import type { SkillsSettings, UpdatePolicy } from '../../settings/skills-settings';
import { getSkillsSettings } from '../../settings/store';
import { managedStore } from '../service/roots';
import { type ApplyContext, type ApplyResult, applyUpdate } from './apply';
import { type CheckRow, readCheckRow, saveRow } from './rows';
import { checkSource, type UpdateTarget, updateTargets } from './sources';
import { type Candidate, stageCandidate } from './stage';

export interface CheckResult {
  slug: string;
  kind: UpdateTarget['kind'];
  status: 'current' | 'available' | 'pinned' | 'error' | 'skipped';
  latestRef: string | null;
  verdict: Candidate['verdict'] | null;
  error: string | null;
  /** Set when the policy applied the candidate (or tried to). */
  auto?: ApplyResult;
}

export interface CheckContext extends ApplyContext {
  /** A scheduled check skips sources whose policy is off; an asked-for one checks them anyway. */
  scheduled?: boolean;
}

export const effectivePolicy = (row: Pick<CheckRow, 'policy'> | undefined, kind: UpdateTarget['kind'], s: SkillsSettings): UpdatePolicy =>
  (row?.policy as UpdatePolicy | null | undefined) ?? s.updatePolicy[kind];

async function checkOne(ctx: CheckContext, settings: SkillsSettings, t: UpdateTarget): Promise<CheckResult> {
  const before = await readCheckRow(ctx.db, t.slug);
  const policy = effectivePolicy(before, t.kind, settings);
  const base = { slug: t.slug, kind: t.kind };
  if (ctx.scheduled && policy === 'off') return { ...base, status: 'skipped', latestRef: null, verdict: null, error: null };
  // Another active version (an update, a rollback, a re-import) starts from a clean slate.
  const row = before?.baseVersion === t.version ? before : undefined;
  const store = managedStore(ctx.dataDir);
  await fsp.mkdir(store.stagingDir, { recursive: true, mode: 0o700 });
  const work = await fsp.mkdtemp(path.join(store.stagingDir, '.tmp-update-'));
  const common = { kind: t.kind, baseVersion: t.version, installedRef: t.installedRef, checkedAt: new Date(), error: null };
  try {
    const found = await checkSource(t, { settings, held: row?.validators ?? {}, work, signal: ctx.signal });
    if (found.state === 'unchanged') {
      const status = row?.status === 'available' ? 'available' : 'current';
      await saveRow(ctx.db, t.slug, { ...common, status, ...(row ? {} : { candidate: null, latestRef: null, validators: found.validators ?? {} }) });
      ctx.log(`${t.slug}: not modified at the source${status === 'available' ? ` (${row?.latestRef} still waiting)` : ''}`);
      const cand = row?.candidate as Candidate | null | undefined;
      return { ...base, status, latestRef: status === 'available' ? (row?.latestRef ?? null) : null, verdict: cand?.verdict ?? null, error: null };
    }
    if (found.state === 'current' || found.state === 'pinned') {
      const status = found.state;
      await saveRow(ctx.db, t.slug, {
        ...common,
        status,
        latestRef: null,
        candidate: null,
        validators: found.state === 'current' ? (found.validators ?? {}) : {},
        error: found.state === 'pinned' ? found.why : null,
      });
      ctx.log(
        `${t.slug}: ${status === 'current' ? `up to date (${t.installedRef.slice(0, 40)})` : `not checked: ${found.state === 'pinned' ? found.why : ''}`}`,
      );
      return { ...base, status, latestRef: null, verdict: null, error: null };
    }
    const held = row?.candidate as Candidate | null | undefined;
    let candidate: Candidate;
    if (held && held.ref === found.ref && !found.downloaded) {
      candidate = held;
      ctx.log(`${t.slug}: ${found.ref} was already staged and scanned (${held.verdict})`);
    } else {
      ctx.log(`${t.slug}: newer version ${found.ref} found; staging it`);
      candidate = await stageCandidate(t, found, { ...ctx, settings, work, log: (l) => ctx.log(`  ${l}`) });
      ctx.log(`${t.slug}: ${found.ref} scanned ${candidate.verdict}; ${candidate.files.length} file(s) differ`);
    }
    await saveRow(ctx.db, t.slug, { ...common, status: 'available', latestRef: found.ref, candidate: { ...candidate }, validators: found.validators ?? {} });
    return { ...base, status: 'available', latestRef: found.ref, verdict: candidate.verdict, error: null };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    ctx.log(`${t.slug}: check failed: ${message}`);
    await saveRow(ctx.db, t.slug, { ...common, status: 'error', error: message.slice(0, 2000) });
    return { ...base, status: 'error', latestRef: null, verdict: null, error: message };
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

/** Checks every imported skill (or `slugs`), then applies clean candidates whose policy is auto. */
export async function checkUpdates(ctx: CheckContext, slugs?: string[]): Promise<{ results: CheckResult[] }> {
  const settings = await getSkillsSettings(ctx.db);
  const targets = await updateTargets(ctx.db, slugs);
  ctx.log(`checking ${targets.length} imported skill(s)`);
  let done = 0;
  const results = await mapLimit(targets, 2, async (t) => {
    const r = await checkOne(ctx, settings, t);
    ctx.progress(Math.round((++done / Math.max(1, targets.length)) * 80), 'checking');
    return r;
  });
  for (const r of results) {
    if (r.status !== 'available') continue;
    const row = await readCheckRow(ctx.db, r.slug);
    if (effectivePolicy(row, r.kind, settings) !== 'auto') continue;
    if (r.verdict !== 'clean') {
      ctx.log(`${r.slug}: not applied automatically: the scan of ${r.latestRef} is ${r.verdict}`);
      continue;
    }
    ctx.log(`${r.slug}: applying ${r.latestRef} (policy auto, scan clean)`);
    r.auto = await applyUpdate({ ...ctx, requireClean: true }, r.slug);
  }
  ctx.progress(100, 'checked');
  return { results };
}
