'use client';

import { PackageSearch, SearchX } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Button } from '../ui/button';
import { EmptyState, RetryableError } from '../ui/misc';
import { GithubInstallBox } from './github-install-box';
import { useGithubJobs } from './github-jobs';
import { GithubUnreachableHint, ReleasePicker } from './github-release-picker';
import { GithubStatusLine } from './github-status';
import { type GithubRowAction, GithubTable } from './github-table';
import { useGithubOverview } from './queries';

/** The GitHub tab of the packages card: host target and rate limit, install/browse, installed releases. */
export function GithubTab({ q, onClearSearch }: { q: string; onClearSearch: () => void }) {
  const overview = useGithubOverview();
  const jobs = useGithubJobs();
  const [browsing, setBrowsing] = useState<string | null>(null);
  const all = overview.data?.packages;
  const rows = useMemo(() => (all ?? []).filter((p) => !q || p.name.toLowerCase().includes(q) || p.repo.toLowerCase().includes(q)), [all, q]);

  const onAction = (a: GithubRowAction) => {
    const spec = `github:${a.pkg.name}`;
    if (a.action === 'update') jobs.start({ action: 'update', spec }, `update ${a.pkg.name}`);
    else if (a.action === 'uninstall') jobs.start({ action: 'uninstall', spec }, `uninstall ${a.pkg.name}`);
    else if (a.action === 'rollback') jobs.start({ action: 'rollback', name: a.pkg.name, version: a.version }, `roll back ${a.pkg.name}`);
    else jobs.start({ action: 'repair' }, 'repair GitHub installs');
  };

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <GithubStatusLine data={overview.data} />
      <GithubInstallBox busy={jobs.pending} onBrowse={setBrowsing} onInstall={(spec) => jobs.start({ action: 'install', spec }, `install ${spec}`)} />
      {overview.error && !overview.data ? (
        <div className="grid gap-2">
          <RetryableError error={overview.error} onRetry={() => void overview.refetch()} />
          <GithubUnreachableHint />
        </div>
      ) : !overview.isPending && !rows.length ? (
        q && all?.length ? (
          <EmptyState
            icon={<SearchX />}
            title="No GitHub packages match"
            action={
              <Button variant="outline" onClick={onClearSearch}>
                Show all GitHub packages
              </Button>
            }
          >
            Try part of the name or the repository.
          </EmptyState>
        ) : (
          <EmptyState icon={<PackageSearch />} title="No GitHub-release packages installed">
            Type a repository above, e.g. <code className="font-mono">BurntSushi/ripgrep</code>, then Browse releases to see which asset fits this host, or
            Install the latest release.
          </EmptyState>
        )
      ) : (
        <GithubTable
          rows={rows}
          target={overview.data?.target}
          loading={overview.isPending}
          activeFor={jobs.activeFor}
          busy={jobs.pending}
          onAction={onAction}
        />
      )}
      <ReleasePicker
        repo={browsing}
        onOpenChange={(o) => !o && setBrowsing(null)}
        busy={jobs.pending || (!!browsing && jobs.installing.has(browsing.toLowerCase()))}
        onInstall={(tag, overrides) => {
          const spec = `github:${browsing}@${tag}`;
          jobs.start({ action: 'install', spec, ...(overrides ? { overrides } : {}) }, `install ${spec}`);
          setBrowsing(null);
        }}
      />
      {jobs.elements}
    </div>
  );
}
