import type { OutdatedPackage } from '../runtime';
import { packageKey } from './records';

/** Update sources: the package managers whose outdated checks feed the unified updates table. */
export const UPDATE_SOURCES = ['pip', 'npm', 'apt', 'apk', 'github'] as const;
export type UpdateSource = (typeof UPDATE_SOURCES)[number];

export interface UpdateRow {
  source: string;
  name: string;
  current: string;
  latest: string;
  prerelease: boolean;
  checkedAt: Date;
  firstSeenAt: Date;
  checkError: string | null;
  lastJobId: string | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
}

/** One source's check: its outdated packages and the packages whose own check failed, or a failure of the whole source. */
export type SourceCheck =
  | { source: UpdateSource; ok: true; outdated: OutdatedPackage[]; errors: { name: string; message: string }[] }
  | { source: UpdateSource; ok: false; error: string };

export interface MergePlan {
  upserts: UpdateRow[];
  deletes: string[];
}

/**
 * Merges a check into the known rows of its source, never replacing blindly: a failed source
 * changes nothing; a package whose own check failed keeps its entry (marked with the error); only a
 * successful check of a package that is no longer outdated (or no longer installed) removes it.
 */
export function planMerge(previous: UpdateRow[], check: SourceCheck, now: Date): MergePlan {
  const plan: MergePlan = { upserts: [], deletes: [] };
  if (!check.ok) return plan;
  const prev = new Map(previous.filter((r) => r.source === check.source).map((r) => [r.name, r]));
  const found = new Set<string>();
  for (const o of check.outdated) {
    const name = packageKey(check.source, o.name);
    found.add(name);
    const old = prev.get(name);
    const updated = !!old && old.current !== o.current;
    plan.upserts.push({
      source: check.source,
      name,
      current: o.current,
      latest: o.latest,
      prerelease: !!o.prerelease,
      checkedAt: now,
      firstSeenAt: old?.firstSeenAt ?? now,
      checkError: null,
      // The installed version moved (an update happened elsewhere): the last attempt's failure no longer applies.
      lastJobId: old?.lastJobId ?? null,
      lastError: updated ? null : (old?.lastError ?? null),
      lastAttemptAt: old?.lastAttemptAt ?? null,
    });
  }
  const failed = new Map(check.errors.map((e) => [packageKey(check.source, e.name), e.message]));
  for (const [name, old] of prev) {
    if (found.has(name)) continue;
    const error = failed.get(name);
    if (error !== undefined) plan.upserts.push({ ...old, checkError: error });
    else plan.deletes.push(name);
  }
  return plan;
}
