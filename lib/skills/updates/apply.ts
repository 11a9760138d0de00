/**
 * Applying a staged candidate: a normal import of exactly that version (pinned registry version,
 * tag or commit) over the installed slug, so the store, the lock file, the audit and the sandbox
 * rollout (installs marked updatable) follow the existing path. Update all runs one skill after
 * another in one job; one failure does not stop the rest.
 */
import { and, eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { skillInstalls, skillUpdateChecks } from '@/db/schema';
import { AppError, isAppError } from '../../core/errors';
import { type ImportContext, importSkill } from '../service/imports';
import { readCheckRow } from './rows';
import { updateTargets } from './sources';
import type { Candidate } from './stage';
import { importFor } from './stage';

export type ApplyContext = Omit<ImportContext, 'db'> & { db: AppDb };

export interface ApplyResult {
  slug: string;
  ok: boolean;
  /** The store version now active, and the one before. */
  version?: string;
  previous?: string | null;
  ref?: string;
  code?: string;
  error?: string;
}

/** Applies the candidate of `slug`; with `requireClean`, a candidate whose scan is not clean is refused. */
export async function applyUpdate(ctx: ApplyContext & { requireClean?: boolean }, slug: string): Promise<ApplyResult> {
  try {
    const [target] = await updateTargets(ctx.db, [slug]);
    const row = await readCheckRow(ctx.db, slug);
    const cand = row?.candidate as Candidate | null | undefined;
    if (!target || !row || row.status !== 'available' || !cand || row.baseVersion !== target.version) {
      throw new AppError('conflict', `${slug} has no update waiting; check it for updates first.`);
    }
    if (cand.verdict === 'critical' || cand.verdict === 'error' || (ctx.requireClean && cand.verdict !== 'clean')) {
      throw new AppError(
        'scan_blocked',
        `The scan of ${slug} ${cand.ref} is ${cand.verdict}; it is not applied${ctx.requireClean ? ' automatically' : ''}. Review it, then import it with an acknowledgement if it is wanted.`,
      );
    }
    const input = importFor(target, cand.ref);
    const out = await importSkill({ ...ctx, progress: () => undefined }, input);
    if (out.contentHash !== cand.contentHash) {
      ctx.log(`${slug}: the source changed again after the check; what was installed was scanned at import (${out.verdict})`);
    }
    // A git skill that follows a branch or HEAD keeps following it: the import pinned the commit only to get exactly what was scanned.
    const trackedRef = target.source.ref ?? null;
    if (target.kind === 'git' && !out.unchanged && trackedRef !== cand.ref && !(typeof trackedRef === 'string' && /^v?\d+\.\d+/.test(trackedRef))) {
      const [inst] = await ctx.db
        .select()
        .from(skillInstalls)
        .where(and(eq(skillInstalls.slug, slug), eq(skillInstalls.version, out.version)));
      if (inst)
        await ctx.db
          .update(skillInstalls)
          .set({ source: { ...inst.source, ref: trackedRef } })
          .where(eq(skillInstalls.id, inst.id));
    }
    await ctx.db
      .update(skillUpdateChecks)
      .set({
        baseVersion: out.version,
        installedRef: cand.ref,
        status: 'current',
        latestRef: null,
        candidate: null,
        error: null,
        appliedAt: new Date(),
        appliedBy: ctx.actor.label,
      })
      .where(eq(skillUpdateChecks.slug, slug));
    ctx.log(`${slug}: updated to ${cand.ref} (${out.version}${out.previous ? `, was ${out.previous}` : ''})`);
    return { slug, ok: true, version: out.version, previous: out.previous, ref: cand.ref };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    ctx.log(`${slug}: update failed: ${message}`);
    return { slug, ok: false, code: isAppError(e) ? e.code : 'internal', error: message };
  }
}

/** Applies several skills' updates (every waiting one when `slugs` is absent), each on its own. */
export async function applyUpdates(ctx: ApplyContext, slugs?: string[]): Promise<{ results: ApplyResult[]; applied: number; failed: number }> {
  const waiting =
    slugs ??
    (await ctx.db.select({ slug: skillUpdateChecks.slug }).from(skillUpdateChecks).where(eq(skillUpdateChecks.status, 'available'))).map((r) => r.slug).sort();
  ctx.log(`updating ${waiting.length} skill(s)`);
  const results: ApplyResult[] = [];
  for (const [i, slug] of waiting.entries()) {
    if (ctx.signal?.aborted) break;
    results.push(await applyUpdate(ctx, slug));
    ctx.progress(Math.round(((i + 1) / waiting.length) * 100), `${i + 1}/${waiting.length}`);
  }
  const failed = results.filter((r) => !r.ok).length;
  return { results, applied: results.length - failed, failed };
}
