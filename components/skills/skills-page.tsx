'use client';

import { FolderPlus, RefreshCw, SearchX, Upload } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '@/components/error-message';
import { PageHeader } from '../shell/shell';
import { usePaletteIntent } from '../shell/use-palette-intent';
import { Button } from '../ui/button';
import { Card, CardContent } from '../ui/card';
import { EmptyState, RetryableError, Tip } from '../ui/misc';
import { RelativeTime } from '../ui/time';
import { useCan } from '../viewer';
import { useFollowJob } from './detail/job-follow';
import { ImportDialog } from './import/import-dialog';
import { useRefreshSkills, useSkillList } from './queries';
import { RootsCard, WarningsPanel } from './roots-card';
import { SkillList } from './skill-list';
import { SkillsToolbar } from './skills-toolbar';
import { StatusTabs } from './status-tabs';
import { UpdatePanel } from './updates/update-panel';
import { UpdatesCard } from './updates/updates-card';
import { useUpdateParam } from './updates/use-update-param';
import { useDebounced, useSkillFilters } from './use-skill-filters';
import { STATUS_TABS } from './view';

/** /skills: the catalog by status and source, searchable, with import, roots and reading problems. */
export function SkillsPage() {
  const [filters, setFilters] = useSkillFilters();
  const q = useDebounced(filters.q.trim(), 250);
  const list = useSkillList({ status: filters.status, q, source: filters.source });
  const refresh = useRefreshSkills();
  const can = useCan('skills.write');
  const [importOpen, setImportOpen] = useState(false);
  const [updateSlug, setUpdateSlug] = useUpdateParam();
  const follow = useFollowJob();
  // ?import=1 (the command palette's "Import skill") opens the dialog once, then leaves the URL.
  usePaletteIntent('import', can.allowed, () => setImportOpen(true));
  const data = list.data;
  const workspace = data?.roots.find((r) => r.kind === 'workspace')?.path;
  const filtered = !!q || !!filters.source || filters.status !== 'all';
  const tabLabel = STATUS_TABS.find((t) => t.id === filters.status)?.label ?? 'All';

  return (
    <>
      <PageHeader
        title="Skills"
        description="Every skill agents can load: where it comes from, whether it is ready to run here, what the scanner found, and its configuration."
        actions={
          <div className="flex gap-2">
            <Button
              variant="outline"
              disabled={refresh.isPending}
              onClick={() =>
                refresh.mutate(undefined, {
                  onSuccess: (r) => toast.success('Skill folders read again', { description: `${r.skills} skills in the catalog.` }),
                  onError: (e) => toast.error('Could not read the skill folders', { description: errorMessage(e) }),
                })
              }
            >
              <RefreshCw aria-hidden className={refresh.isPending ? 'animate-spin motion-reduce:animate-none' : undefined} /> Rescan
            </Button>
            <Tip content={can.why}>
              <Button onClick={() => setImportOpen(true)} disabled={!can.allowed} data-testid="import-skill">
                <Upload aria-hidden /> Import skill
              </Button>
            </Tip>
          </div>
        }
      />
      <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
        <WarningsPanel warnings={data?.warnings ?? []} />
        <Card>
          <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4 pt-5">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <StatusTabs value={filters.status} counts={data?.counts} onChange={(status) => setFilters({ status })} controls="skills-panel" />
              <SkillsToolbar filters={filters} setFilters={setFilters} />
            </div>
            <div id="skills-panel" role="tabpanel" aria-labelledby={`skills-tab-${filters.status}`} className="grid grid-cols-[minmax(0,1fr)] gap-3">
              {list.error && !data ? (
                <RetryableError error={list.error} onRetry={() => void list.refetch()} />
              ) : data && !data.skills.length ? (
                data.counts.all === 0 && !q && !filters.source ? (
                  <EmptyState
                    icon={<FolderPlus />}
                    title="No skills yet"
                    action={
                      can.allowed ? (
                        <Button onClick={() => setImportOpen(true)}>
                          <Upload aria-hidden /> Import skill
                        </Button>
                      ) : null
                    }
                  >
                    Import one (an archive, a git repository, a URL or ClawHub), or add a folder with a SKILL.md under{' '}
                    <code className="break-all rounded bg-muted px-1 font-mono text-foreground">{workspace ?? 'the workspace skills folder'}</code>. It shows up
                    here within seconds.
                  </EmptyState>
                ) : (
                  <EmptyState
                    icon={<SearchX />}
                    title={filtered ? 'No skills match' : 'Nothing here'}
                    action={
                      <Button variant="outline" onClick={() => setFilters({ q: '', source: '', status: 'all' })}>
                        Show all skills
                      </Button>
                    }
                  >
                    {q ? (
                      <>
                        Nothing in {tabLabel === 'All' ? 'the catalog' : `“${tabLabel}”`} matches “{q}”. Try fewer or different words: search covers names,
                        descriptions and SKILL.md text.
                      </>
                    ) : (
                      <>
                        No {tabLabel.toLowerCase()} skills{filters.source ? ' from this source' : ''}.
                      </>
                    )}
                  </EmptyState>
                )
              ) : (
                <div className={list.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined} aria-busy={list.isFetching && list.isPlaceholderData}>
                  <SkillList
                    key={`${filters.status}|${q}|${filters.source}`}
                    skills={data?.skills ?? []}
                    roots={data?.roots ?? []}
                    loading={!data}
                    searching={!!q}
                  />
                </div>
              )}
              {data ? (
                <p className="text-xs text-muted-foreground" data-testid="catalog-facts">
                  Requirements checked on <span className="text-foreground">{data.target.label}</span> · catalog v{data.version}, read{' '}
                  <RelativeTime iso={data.builtAt} /> · updates by itself when a skill folder changes
                </p>
              ) : null}
            </div>
          </CardContent>
        </Card>
        <UpdatesCard onJob={follow.follow} />
        <RootsCard roots={data?.roots} loading={!data} />
      </div>
      {importOpen ? <ImportDialog open onOpenChange={setImportOpen} /> : null}
      {updateSlug ? <UpdatePanel key={updateSlug} slug={updateSlug} onClose={() => setUpdateSlug(null)} onJob={follow.follow} /> : null}
      {follow.node}
    </>
  );
}
