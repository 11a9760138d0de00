import type { Database } from '@/db/client';
import type { Actor } from '../auth/actor';
import { AppError } from '../core/errors';
import { jobSpec } from '../jobs/kind';
import { enqueueTree } from '../jobs/queue';
import { githubUpdateJob, packageUpdateJob, updateAllJob } from './job-kinds';
import { packageKey } from './records';
import type { ApplyAllInput } from './update-schemas';
import { updateTarget } from './update-target';
import { listUpdates, type UpdateItem } from './updates';

/** Chosen rows: the named ones (each must be pending and not pinned), or every unpinned pending update. */
function choose(updates: UpdateItem[], packages: string[] | undefined): UpdateItem[] {
  if (!packages?.length) {
    const chosen = updates.filter((u) => !u.pinned);
    if (!chosen.length) {
      throw new AppError(
        'conflict',
        updates.length ? 'Every pending update is pinned; unpin a package to update it.' : 'There are no pending updates. Refresh the update check first.',
      );
    }
    return chosen;
  }
  const chosen = new Map<string, UpdateItem>();
  for (const [i, raw] of packages.entries()) {
    const t = updateTarget(raw);
    if ('message' in t) throw new AppError('validation', t.message, { issues: [{ path: `packages.${i}`, message: t.message }] });
    const u = updates.find((x) => x.source === t.source && x.name === packageKey(t.source, t.name));
    if (!u) throw new AppError('conflict', `${raw} has no pending update. Refresh the update check, or update it on its own with a toVersion.`);
    if (u.pinned) throw new AppError('conflict', `${u.spec} is pinned${u.pinReason ? ` (${u.pinReason})` : ''}; unpin it to update it.`);
    chosen.set(u.spec, u);
  }
  return [...chosen.values()];
}

/**
 * Update All: one parent job and one `package.update` child per package, queued together.
 * Children run independently, so a failure never stops the others; the parent reports each outcome.
 */
export async function startUpdateAll(database: Database, actor: Actor, input: ApplyAllInput, ttlMinutes: number) {
  const view = await listUpdates(database.db, ttlMinutes);
  const chosen = choose(view.updates, input.packages);
  const items = chosen.map((u) => ({ spec: u.spec, from: u.current, to: u.latest }));
  const children = chosen.map((u) =>
    u.source === 'github'
      ? jobSpec(githubUpdateJob, { name: u.name, toTag: u.latest })
      : // pip and npm install exactly the version that was offered; system managers take their candidate.
        jobSpec(packageUpdateJob, u.source === 'pip' || u.source === 'npm' ? { spec: u.spec, toVersion: u.latest } : { spec: u.spec }),
  );
  const tree = await enqueueTree(database, actor, jobSpec(updateAllJob, { items }), children, { trusted: true });
  return { job: tree.parent, children: tree.children };
}
