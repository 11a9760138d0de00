import { and, eq } from 'drizzle-orm';
import type { AppDb, Database } from '@/db/client';
import { packagePins, packageUpdateSources, packageUpdates } from '@/db/schema';
import { recordAudit } from '../audit/audit';
import type { Actor } from '../auth/actor';
import { AppError } from '../core/errors';
import { compareDebian, comparePep440, compareSemver, type ManagerContext } from '../runtime';
import { packageKey } from './records';
import { type CheckOptions, checkSource, hostUpdateSources } from './update-check';
import type { PinInput } from './update-schemas';
import { updateTarget } from './update-target';
import { planMerge, type SourceCheck, type UpdateSource } from './updates-merge';

export const updateSpec = (source: string, name: string): string => `${source}:${name}`;

export interface RefreshSummary {
  sources: { source: UpdateSource; ok: boolean; outdated: number; errors: number; error?: string }[];
  pending: number;
}

/**
 * Writes one source's check: merged rows and the source's state, in one transaction. A check of
 * some packages only (`names`) merges into their rows alone and leaves the source's state as it was.
 */
async function applyCheck(db: AppDb, check: SourceCheck, now: Date, names?: readonly string[]): Promise<void> {
  await db.transaction(async (tx) => {
    const keys = names ? new Set(names.map((n) => packageKey(check.source, n))) : null;
    const previous = (await tx.select().from(packageUpdates).where(eq(packageUpdates.source, check.source))).filter((r) => !keys || keys.has(r.name));
    const plan = planMerge(previous, check, now);
    for (const name of plan.deletes) await tx.delete(packageUpdates).where(and(eq(packageUpdates.source, check.source), eq(packageUpdates.name, name)));
    for (const row of plan.upserts) {
      await tx
        .insert(packageUpdates)
        .values(row)
        .onConflictDoUpdate({ target: [packageUpdates.source, packageUpdates.name], set: row });
    }
    if (keys) return;
    const state = check.ok
      ? { checkedAt: now, attemptedAt: now, error: null, details: check.errors.length ? { packageErrors: check.errors } : null }
      : { attemptedAt: now, error: check.error, details: null };
    await tx
      .insert(packageUpdateSources)
      .values({ source: check.source, ...state })
      .onConflictDoUpdate({ target: packageUpdateSources.source, set: state });
  });
}

/** Checks every source of this host in parallel (one failing never stops the others) and merges the results. */
export async function refreshUpdates(
  database: Database,
  ctx: ManagerContext,
  opts: CheckOptions & { sources?: UpdateSource[]; onSource?: (check: SourceCheck) => void } = {},
): Promise<RefreshSummary> {
  const sources = opts.sources ?? hostUpdateSources();
  const checks = await Promise.all(
    sources.map(async (source) => {
      const check = await checkSource(source, ctx, opts);
      await applyCheck(database.db, check, new Date());
      opts.onSource?.(check);
      return check;
    }),
  );
  const pending = (await database.db.select({ name: packageUpdates.name }).from(packageUpdates)).length;
  return {
    sources: checks.map((c) =>
      c.ok
        ? { source: c.source, ok: true, outdated: c.outdated.length, errors: c.errors.length }
        : { source: c.source, ok: false, outdated: 0, errors: 0, error: c.error },
    ),
    pending,
  };
}

/**
 * Re-checks one package right after a job installed or updated it, so its update row reflects the
 * version now installed (an older version than the latest shows its update at once). GitHub releases
 * are settled by their own jobs. A failed look-up leaves the row as it was and is returned, not thrown.
 */
export async function recheckPackage(
  db: AppDb,
  ctx: ManagerContext,
  source: string,
  name: string,
  opts: CheckOptions = {},
): Promise<{ ok: true } | { ok: false; error: string }> {
  if (!hostUpdateSources().includes(source as UpdateSource) || source === 'github') return { ok: true };
  const check = await checkSource(source as UpdateSource, ctx, { timeoutMs: { [source]: 60_000 }, ...opts, names: [name] });
  if (!check.ok) return { ok: false, error: check.error };
  await applyCheck(db, check, new Date(), [name]);
  const failed = check.errors.find((e) => packageKey(source, e.name) === packageKey(source, name));
  return failed ? { ok: false, error: failed.message } : { ok: true };
}

export interface UpdateItem {
  source: string;
  name: string;
  spec: string;
  current: string;
  latest: string;
  prerelease: boolean;
  checkedAt: string;
  firstSeenAt: string;
  checkError: string | null;
  pinned: boolean;
  pinReason: string | null;
  lastJobId: string | null;
  lastError: string | null;
  lastAttemptAt: string | null;
}

export interface UpdatesView {
  updates: UpdateItem[];
  pins: { source: string; name: string; reason: string | null; pinnedBy: string; pinnedAt: string }[];
  sources: { source: string; checkedAt: string | null; attemptedAt: string | null; error: string | null; stale: boolean; packageErrors: number }[];
  /** The oldest successful check among the sources (null: some source was never checked). */
  checkedAt: string | null;
  ageSeconds: number | null;
  ttlSeconds: number;
  stale: boolean;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The unified updates table with pins and each source's freshness. */
export async function listUpdates(db: AppDb, ttlMinutes: number, now = new Date()): Promise<UpdatesView> {
  const [rows, pins, states] = await Promise.all([db.select().from(packageUpdates), db.select().from(packagePins), db.select().from(packageUpdateSources)]);
  const pinMap = new Map(pins.map((p) => [`${p.source}\n${p.name}`, p]));
  const ttlMs = ttlMinutes * 60_000;
  const known = new Map(states.map((s) => [s.source, s]));
  const sources = hostUpdateSources().map((source) => {
    const s = known.get(source);
    const checkedAt = s?.checkedAt ?? null;
    const stale = !checkedAt || now.getTime() - checkedAt.getTime() > ttlMs || !!s?.error;
    const packageErrors = ((s?.details as { packageErrors?: unknown[] } | null)?.packageErrors ?? []).length;
    return { source, checkedAt: iso(checkedAt), attemptedAt: iso(s?.attemptedAt ?? null), error: s?.error ?? null, stale, packageErrors };
  });
  const times = sources.map((s) => s.checkedAt);
  const oldest = times.includes(null) ? null : ((times as string[]).sort()[0] ?? null);
  return {
    updates: rows
      .map((r) => {
        const pin = pinMap.get(`${r.source}\n${r.name}`);
        return {
          source: r.source,
          name: r.name,
          spec: updateSpec(r.source, r.name),
          current: r.current,
          latest: r.latest,
          prerelease: r.prerelease,
          checkedAt: r.checkedAt.toISOString(),
          firstSeenAt: r.firstSeenAt.toISOString(),
          checkError: r.checkError,
          pinned: !!pin,
          pinReason: pin?.reason ?? null,
          lastJobId: r.lastJobId,
          lastError: r.lastError,
          lastAttemptAt: iso(r.lastAttemptAt),
        };
      })
      .sort((a, b) => a.source.localeCompare(b.source) || a.name.localeCompare(b.name)),
    pins: pins.map((p) => ({ source: p.source, name: p.name, reason: p.reason, pinnedBy: p.pinnedBy, pinnedAt: p.pinnedAt.toISOString() })),
    sources,
    checkedAt: oldest,
    ageSeconds: oldest ? Math.round((now.getTime() - Date.parse(oldest)) / 1000) : null,
    ttlSeconds: ttlMinutes * 60,
    stale: sources.some((s) => s.stale),
  };
}

function compareFor(source: string, a: string, b: string): number {
  // GitHub tags are not ordered by text; the check already decided which is newer.
  if (source === 'github') return a === b ? 0 : -1;
  try {
    if (source === 'pip') return comparePep440(a, b);
    if (source === 'npm') return compareSemver(a, b);
    return compareDebian(a, b);
  } catch {
    return a === b ? 0 : -1;
  }
}

/** After an update attempt: a success at or past the known latest clears the row; a failure stays on it with its reason. */
export async function settleUpdate(db: AppDb, r: { source: string; name: string; jobId: string; toVersion?: string | null; error?: string }): Promise<void> {
  const name = packageKey(r.source, r.name);
  const where = and(eq(packageUpdates.source, r.source), eq(packageUpdates.name, name));
  const [row] = await db.select().from(packageUpdates).where(where);
  if (!row) return;
  const now = new Date();
  if (r.error !== undefined) {
    await db.update(packageUpdates).set({ lastJobId: r.jobId, lastError: r.error, lastAttemptAt: now }).where(where);
  } else if (r.toVersion && compareFor(r.source, r.toVersion, row.latest) >= 0) {
    await db.delete(packageUpdates).where(where);
  } else if (r.toVersion) {
    await db.update(packageUpdates).set({ current: r.toVersion, lastJobId: r.jobId, lastError: null, lastAttemptAt: now }).where(where);
  }
}

/** An uninstalled package has no pending update. */
export async function dropUpdates(db: AppDb, source: string, name: string): Promise<void> {
  await db.delete(packageUpdates).where(and(eq(packageUpdates.source, source), eq(packageUpdates.name, packageKey(source, name))));
}

export async function setPin(
  db: AppDb,
  actor: Actor,
  p: { source: UpdateSource; name: string; pinned: boolean; reason?: string },
): Promise<{ pinned: boolean }> {
  const name = packageKey(p.source, p.name);
  return db.transaction(async (tx) => {
    const where = and(eq(packagePins.source, p.source), eq(packagePins.name, name));
    const [before] = await tx.select().from(packagePins).where(where);
    if (p.pinned) {
      const row = { source: p.source, name, reason: p.reason ?? null, pinnedBy: actor.label, pinnedAt: new Date() };
      await tx
        .insert(packagePins)
        .values(row)
        .onConflictDoUpdate({ target: [packagePins.source, packagePins.name], set: row });
    } else if (!before) {
      throw new AppError('not_found', `${updateSpec(p.source, name)} is not pinned.`);
    } else await tx.delete(packagePins).where(where);
    await recordAudit(tx, actor, {
      action: p.pinned ? 'package.pin' : 'package.unpin',
      targetType: 'package',
      targetId: updateSpec(p.source, name),
      before: before ? { pinned: true, reason: before.reason } : { pinned: false },
      after: { pinned: p.pinned, ...(p.pinned ? { reason: p.reason ?? null } : {}) },
    });
    return { pinned: p.pinned };
  });
}

/** Pins or releases the package a spec names (pip:x, npm:x, apt:x or a bare system name). */
export async function pinPackage(db: AppDb, actor: Actor, input: PinInput): Promise<{ pinned: boolean }> {
  const t = updateTarget(input.spec);
  if ('message' in t) throw new AppError('validation', t.message, { issues: [{ path: 'spec', message: t.message }] });
  return setPin(db, actor, { source: t.source, name: t.name, pinned: input.pinned, reason: input.reason || undefined });
}
