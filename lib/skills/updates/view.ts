/** What the catalog shows about updates (per skill, with the candidate's diff and verdict), the policy, and the lock built from the database. */
import type { z } from 'zod';
import type { AppDb } from '@/db/client';
import { skillUpdateChecks } from '@/db/schema';
import { recordAudit } from '../../audit/audit';
import type { Actor } from '../../auth/actor';
import { AppError } from '../../core/errors';
import type { UpdatePolicy } from '../../settings/skills-settings';
import { getSkillsSettings, updateSkillsSettings } from '../../settings/store';
import { readRows } from '../shared/rows';
import type { ClawhubLock } from '../store';
import { lockEntryFor } from '../store/store-state';
import { effectivePolicy } from './check';
import { readCheckRow, saveRow } from './rows';
import type { updatePolicyInput } from './schemas';
import { type UpdateTarget, updateTargets } from './sources';
import type { Candidate } from './stage';

function sourceLabel(t: UpdateTarget): string {
  const s = t.source;
  if (t.kind === 'clawhub') return `ClawHub ${s.ownerHandle ? `@${s.ownerHandle}/` : ''}${s.slug}`;
  if (t.kind === 'git') return `git ${s.url}${s.ref ? `@${s.ref}` : ''}${s.subdir ? ` (${s.subdir})` : ''}`;
  return String(s.url);
}

/** One row per imported skill: installed, last check, the newer version found with its verdict and diff summary. */
export async function listUpdates(db: AppDb) {
  const settings = await getSkillsSettings(db);
  const targets = await updateTargets(db);
  const rows = new Map((await db.select().from(skillUpdateChecks)).map((r) => [r.slug, r]));
  const items = targets.map((t) => {
    const r = rows.get(t.slug);
    const fresh = r?.baseVersion === t.version ? r : undefined;
    const c = (fresh?.candidate ?? null) as Candidate | null;
    return {
      slug: t.slug,
      kind: t.kind,
      source: sourceLabel(t),
      version: t.version,
      installedRef: t.installedRef,
      status: (fresh?.status ?? 'unchecked') as 'current' | 'available' | 'pinned' | 'error' | 'unchecked',
      latestRef: fresh?.latestRef ?? null,
      verdict: c?.verdict ?? null,
      critical: c?.critical ?? 0,
      filesChanged: c?.files.length ?? 0,
      error: fresh?.error ?? null,
      checkedAt: r?.checkedAt?.toISOString() ?? null,
      appliedAt: r?.appliedAt?.toISOString() ?? null,
      policy: (r?.policy ?? null) as UpdatePolicy | null,
      effectivePolicy: effectivePolicy(r, t.kind, settings),
    };
  });
  return { items, available: items.filter((i) => i.status === 'available').length, policies: settings.updatePolicy, checkHours: settings.updateCheckHours };
}

/** One skill's update with the candidate's file list and text diffs. */
export async function updateDetail(db: AppDb, slug: string) {
  const { items } = await listUpdates(db);
  const item = items.find((i) => i.slug === slug);
  if (!item) throw new AppError('not_found', `${slug} is not a skill imported from ClawHub, git or a URL.`);
  const row = await readCheckRow(db, slug);
  const c = item.status === 'available' ? ((row?.candidate ?? null) as Candidate | null) : null;
  return {
    ...item,
    candidate: c
      ? {
          ref: c.ref,
          contentHash: c.contentHash,
          verdict: c.verdict,
          findings: c.findings,
          critical: c.critical,
          files: c.files,
          textDiffs: c.textDiffs,
          truncated: c.truncated,
        }
      : null,
  };
}

export async function setUpdatePolicy(db: AppDb, actor: Actor, input: z.infer<typeof updatePolicyInput>) {
  if ('kind' in input) {
    const s = await getSkillsSettings(db);
    await updateSkillsSettings(db, actor, { updatePolicy: { ...s.updatePolicy, [input.kind]: input.policy } });
    return { kind: input.kind, slug: null, policy: input.policy };
  }
  const [t] = await updateTargets(db, [input.slug]);
  if (!t) throw new AppError('not_found', `${input.slug} is not a skill imported from ClawHub, git or a URL.`);
  const before = await readCheckRow(db, input.slug);
  await db.transaction(async (tx) => {
    await saveRow(tx as unknown as AppDb, input.slug, { kind: t.kind, policy: input.policy });
    await recordAudit(tx, actor, {
      action: 'skill.update_policy',
      targetType: 'skill',
      targetId: input.slug,
      before: { policy: before?.policy ?? null },
      after: { policy: input.policy },
    });
  });
  return { kind: null, slug: input.slug, policy: input.policy };
}

/**
 * ClawHub's lock document (`.clawhub/lock.json`: slug → version, installedAt, owner, pin) built from
 * the shared store's rows — the same entries each replica writes into its own managed folder.
 */
export async function lockFromDb(db: AppDb): Promise<ClawhubLock> {
  const rows = await readRows(db);
  const skills: ClawhubLock['skills'] = {};
  for (const [slug, row] of [...rows.slugs.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (row.removed || !row.active) continue;
    const v = rows.versions.get(slug)?.find((x) => x.version === row.active);
    if (!v) continue;
    skills[slug] = lockEntryFor(
      v.record,
      row.pinned ? { version: '', installedAt: 0, pinned: true, ...(row.pinReason ? { pinReason: row.pinReason } : {}) } : undefined,
    );
  }
  return { version: 1, skills };
}
