'use client';

import { RefreshCw } from 'lucide-react';
import { useCallback, useState } from 'react';
import { toast } from 'sonner';
import type { Job } from '../jobs/types';
import { PageHeader } from '../shell/shell';
import { Button } from '../ui/button';
import { EnvCard } from './env-card';
import { InstallBox } from './install-box';
import { JobDrawer, JobEndWatcher } from './job-drawer';
import { PackagesCard } from './packages-card';
import { usePackageJob, useRuntimes } from './queries';
import { RuntimeStatus } from './runtime-status';
import { packageSpec, type InstalledPackage, type PackageAction } from './types';
import { useRuntimeFilters } from './use-runtime-filters';

/** /runtime: detected runtimes, install box, installed packages per manager, and the skill environment. */
export function RuntimePage() {
  const [filters, setFilters] = useRuntimeFilters();
  const { query: runtimes, refresh } = useRuntimes();
  const [drawer, setDrawer] = useState<{ job: Job; open: boolean } | null>(null);
  // Package jobs still running: each is watched until it ends, then the lists are refreshed.
  const [watching, setWatching] = useState<string[]>([]);
  const done = useCallback((id: string) => setWatching((w) => w.filter((x) => x !== id)), []);

  const started = useCallback((job: Job) => {
    setDrawer({ job, open: true });
    setWatching((w) => (w.includes(job.id) ? w : [...w, job.id]));
  }, []);
  const install = usePackageJob(started);
  const rowAction = usePackageJob(started);

  const onAction = (action: PackageAction, p: InstalledPackage) =>
    rowAction.mutate(
      { action, spec: packageSpec(p) },
      { onError: (e) => toast.error(`Could not start the ${action} of ${p.name}`, { description: e instanceof Error ? e.message : String(e) }) },
    );

  return (
    <>
      <PageHeader
        title="Runtime & Packages"
        description="The runtimes and tools skills can use on this host, and the pip, npm and system packages installed for them."
        actions={
          <Button
            variant="outline"
            onClick={() => refresh.mutate(undefined, { onError: (e) => toast.error('Could not detect the runtimes again', { description: e instanceof Error ? e.message : String(e) }) })}
            disabled={refresh.isPending}
          >
            <RefreshCw aria-hidden className={refresh.isPending ? 'animate-spin motion-reduce:animate-none' : undefined} /> {refresh.isPending ? 'Detecting…' : 'Refresh'}
          </Button>
        }
      />
      <div className="grid gap-4">
        <RuntimeStatus report={runtimes.data} loading={runtimes.isPending} error={runtimes.error} />
        <InstallBox onInstall={(spec) => install.mutateAsync({ action: 'install', spec })} busy={install.isPending} error={install.error} />
        <PackagesCard filters={filters} setFilters={setFilters} readiness={runtimes.data?.managers} onAction={onAction} busy={rowAction.isPending} />
        <EnvCard env={runtimes.data?.env} loading={runtimes.isPending} />
      </div>
      {watching.map((id) => (
        <JobEndWatcher key={id} id={id} onDone={done} />
      ))}
      {drawer ? <JobDrawer key={drawer.job.id} job={drawer.job} open={drawer.open} onOpenChange={(open) => setDrawer((d) => (d ? { ...d, open } : d))} /> : null}
    </>
  );
}
