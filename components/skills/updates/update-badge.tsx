'use client';

import { ArrowUpCircle } from 'lucide-react';
import { useSkillUpdates } from './queries';
import { useUpdateParam } from './use-update-param';

/** The last segment of a managed skill's folder: its slug in the store. */
const slugOfDir = (dir: string) => dir.split('/').filter(Boolean).pop() ?? '';

/** "Update available" beside a managed skill's name when its source has a newer version; opens the update panel. */
export function UpdateBadge({ source, dir }: { source: string; dir: string }) {
  const { data } = useSkillUpdates();
  const [, open] = useUpdateParam();
  if (source !== 'managed' || !data) return null;
  const slug = slugOfDir(dir);
  const item = data.items.find((i) => i.slug === slug && i.status === 'available');
  if (!item) return null;
  const critical = item.verdict === 'critical' || item.verdict === 'error';
  return (
    <button
      type="button"
      onClick={() => open(slug)}
      data-testid="update-badge"
      data-slug={slug}
      data-verdict={item.verdict ?? ''}
      title={`${item.latestRef} is available from ${item.source}${critical ? '; its scan found critical issues' : ''}. Open to see the changes.`}
      className={`inline-flex w-fit items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-medium focus-visible:outline-2 focus-visible:outline-ring ${
        critical ? 'border-destructive/40 text-destructive hover:bg-destructive/10' : 'border-primary/40 text-primary hover:bg-primary/10'
      }`}
    >
      <ArrowUpCircle aria-hidden className="size-3.5" /> Update available
    </button>
  );
}
