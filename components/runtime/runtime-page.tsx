'use client';

import { ScanSearch } from 'lucide-react';
import { useCallback, useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '@/components/error-message';
import { useJobsSocket } from '../jobs/use-jobs-socket';
import { useJobStartedToast } from '../jobs/use-start-job';
import type { Job } from '../jobs/view';
import { PageHeader } from '../shell/shell';
import { Button } from '../ui/button';
import { DepsCheckCard } from './deps-check';
import { EnvCard } from './env-card';
import { InstallBox } from './install-box';
import { InstallHistoryCard } from './install-history';
import { JobDrawer } from './job-drawer';
import { PackagesCard } from './packages-card';
import { usePackageJob, usePin, useRuntimes, useUpdates } from './queries';
import { RuntimeSections } from './runtime-sections';
import { RuntimeStatus } from './runtime-status';
import { UpdateAllDialog } from './update-all-dialog';
import { UpdatesBar } from './updates-bar';
import { usePackageJobs } from './updates-jobs';
import { PinDialog } from './updates-pin-dialog';
import { type UpdateRow, UpdatesTable } from './updates-table';
import { useRuntimeFilters } from './use-runtime-filters';
import { type ApplyAllResponse, type InstalledPackage, type PackageAction, packageSpec } from './view';

/** /runtime in sections: overview (runtimes, updates summary), packages, updates, GitHub releases, the deps check and the skill environment. */
export function RuntimePage() {
  const [filters, setFilters] = useRuntimeFilters();
  const { query: runtimes, refresh } = useRuntimes();
  const updates = useUpdates();
  // Job changes are pushed over /ws/jobs into the job cache, so chips and progress move live.
  useJobsSocket();
  const [drawer, setDrawer] = useState<{ job: Job; open: boolean } | null>(null);
  // Package jobs still running: each row shows its job until it ends; then the lists refresh and one toast says how it went.
  const { active, track, watchers } = usePackageJobs();
  const startedToast = useJobStartedToast();

  const started = useCallback(
    (job: Job) => {
      setDrawer({ job, open: true });
      track(job);
    },
    [track],
  );
  const install = usePackageJob(started);
  const rowAction = usePackageJob(started);
  const rowUpdate = usePackageJob(started);
  const pin = usePin();
  const [pinTarget, setPinTarget] = useState<UpdateRow | null>(null);
  const [allOpen, setAllOpen] = useState(false);

  const onAction = (action: PackageAction, p: InstalledPackage) =>
    rowAction.mutate(
      { action, spec: packageSpec(p) },
      { onError: (e) => toast.error(`Could not start the ${action} of ${p.name}`, { description: errorMessage(e) }) },
    );

  const onUpdate = (u: UpdateRow) =>
    rowUpdate.mutate(
      { action: 'update', spec: u.spec, toVersion: u.source === 'pip' || u.source === 'npm' || u.source === 'github' ? u.latest : undefined },
      { onError: (e) => toast.error(`Could not start the update of ${u.name}`, { description: errorMessage(e) }) },
    );

  const onUnpin = (u: UpdateRow) =>
    pin.mutate(
      { spec: u.spec, pinned: false },
      { onSuccess: () => toast.success(`${u.name} unpinned`), onError: (e) => toast.error(`Could not unpin ${u.name}`, { description: errorMessage(e) }) },
    );

  const onPin = (reason: string) => {
    const u = pinTarget;
    if (!u) return;
    pin.mutate(
      { spec: u.spec, pinned: true, ...(reason ? { reason } : {}) },
      {
        onSuccess: () => {
          setPinTarget(null);
          toast.success(`${u.name} pinned`, { description: 'Update All will leave it alone until you unpin it.' });
        },
      },
    );
  };

  const bar = (
    <UpdatesBar
      view={updates.data}
      loading={updates.isPending}
      error={updates.error}
      onRetry={() => void updates.refetch()}
      onUpdateAll={() => setAllOpen(true)}
      detailsHref={filters.tab === 'updates' ? undefined : '/runtime?tab=updates'}
    />
  );

  const onUpdateAllStarted = (r: ApplyAllResponse) => {
    track(r.job);
    for (const c of r.children) track(c, { quiet: true });
    startedToast(r.job, 'Update All started');
  };

  const section = filters.tab;
  const installPrefix = ({ system: 'system', python: 'pip', node: 'npm' } as const)[filters.pm];

  return (
    <>
      <PageHeader
        title="Runtime & Packages"
        description="The runtimes and tools skills can use on this host, and the pip, npm, system and GitHub-release packages installed for them."
        actions={
          section === 'overview' || section === 'env' ? (
            <Button
              variant="outline"
              onClick={() =>
                refresh.mutate(undefined, {
                  onError: (e) => toast.error('Could not detect the runtimes again', { description: errorMessage(e) }),
                })
              }
              disabled={refresh.isPending}
            >
              <ScanSearch aria-hidden className={refresh.isPending ? 'animate-pulse motion-reduce:animate-none' : undefined} />{' '}
              {refresh.isPending ? 'Detecting…' : 'Detect runtimes again'}
            </Button>
          ) : null
        }
      />
      <RuntimeSections filters={filters} counts={{ updates: updates.data?.updates.length }} />
      <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-section={section}>
        {section === 'overview' ? (
          <>
            <RuntimeStatus report={runtimes.data} loading={runtimes.isPending} error={runtimes.error} />
            {bar}
          </>
        ) : null}
        {section === 'updates' ? (
          <>
            {bar}
            {updates.data ? (
              <UpdatesTable
                view={updates.data}
                filters={filters}
                setFilters={setFilters}
                active={active}
                onUpdate={onUpdate}
                onPin={(u) => {
                  pin.reset();
                  setPinTarget(u);
                }}
                onUnpin={onUnpin}
                starting={rowUpdate.isPending ? (rowUpdate.variables?.spec ?? null) : null}
              />
            ) : null}
          </>
        ) : null}
        {section === 'packages' ? (
          <>
            <InstallBox
              prefix={installPrefix}
              onInstall={(spec) => install.mutateAsync({ action: 'install', spec })}
              busy={install.isPending}
              error={install.error}
            />
            <PackagesCard
              filters={filters}
              setFilters={setFilters}
              readiness={runtimes.data?.managers}
              onAction={onAction}
              busy={rowAction.isPending}
              active={active}
            />
            <InstallHistoryCard />
          </>
        ) : null}
        {section === 'github' ? (
          <PackagesCard
            filters={filters}
            setFilters={setFilters}
            readiness={runtimes.data?.managers}
            onAction={onAction}
            busy={rowAction.isPending}
            active={active}
          />
        ) : null}
        {section === 'deps' ? <DepsCheckCard /> : null}
        {section === 'env' ? <EnvCard env={runtimes.data?.env} loading={runtimes.isPending} /> : null}
      </div>
      {watchers}
      {allOpen ? <UpdateAllDialog open onOpenChange={setAllOpen} updates={updates.data?.updates ?? []} onStarted={onUpdateAllStarted} /> : null}
      <PinDialog target={pinTarget} onOpenChange={(o) => !o && setPinTarget(null)} onPin={onPin} busy={pin.isPending} error={pinTarget ? pin.error : null} />
      {drawer ? (
        <JobDrawer
          key={drawer.job.id}
          job={drawer.job}
          open={drawer.open}
          onOpenChange={(open) => setDrawer((d) => (d ? { ...d, open } : d))}
          onRetried={started}
        />
      ) : null}
    </>
  );
}
