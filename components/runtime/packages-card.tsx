'use client';

import { PackageOpen, Search, SearchX } from 'lucide-react';
import { useDeferredValue, useMemo } from 'react';
import { Button } from '../ui/button';
import { Card, CardContent } from '../ui/card';
import { cn } from '../ui/cn';
import { Input } from '../ui/input';
import { EmptyState, ErrorNote, RetryableError } from '../ui/misc';
import { GithubTab } from './github-tab';
import { PackagesTable } from './packages-table';
import { usePackages } from './queries';
import type { RuntimeFilters } from './use-runtime-filters';
import { type InstalledPackage, type ManagerTabId, type PackageAction, type PackageSort, type Readiness, TABS } from './view';

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function sortRows(rows: InstalledPackage[], sort: PackageSort): InstalledPackage[] {
  const desc = sort.startsWith('-');
  const field = desc ? sort.slice(1) : sort;
  const cmp = (a: InstalledPackage, b: InstalledPackage) =>
    field === 'version' ? collator.compare(a.version, b.version) || collator.compare(a.name, b.name) : collator.compare(a.name, b.name);
  return [...rows].sort((a, b) => (desc ? -cmp(a, b) : cmp(a, b)));
}

const EXAMPLE: Record<string, string> = { system: 'system:jq', python: 'pip:requests==2.31.0', node: 'npm:is-number@7.0.0' };

/** System / Python / Node tabs over the installed packages (or the GitHub-release packages), with search, sort and an "installed here" toggle. */
export function PackagesCard({
  filters,
  setFilters,
  readiness,
  onAction,
  busy,
  active,
}: {
  filters: RuntimeFilters;
  setFilters: (p: Partial<RuntimeFilters>) => void;
  readiness: Record<string, Readiness> | undefined;
  onAction: (action: PackageAction, p: InstalledPackage) => void;
  busy: boolean;
  active: Map<string, string>;
}) {
  const github = filters.tab === 'github';
  const current = github ? 'github' : (TABS.find((t) => t.id === filters.pm) ?? TABS[0]).id;
  const q = useDeferredValue(filters.q.trim().toLowerCase());

  return (
    <Card>
      <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4 pt-5">
        <div className="flex flex-wrap items-center justify-between gap-3">
          {github ? (
            <h2 className="font-semibold">GitHub-release packages</h2>
          ) : (
            <div role="tablist" aria-label="Package managers" className="inline-flex rounded-md border bg-muted/40 p-0.5">
              {TABS.map((t) => (
                <button
                  key={t.id}
                  type="button"
                  role="tab"
                  id={`pkg-tab-${t.id}`}
                  aria-selected={t.id === current}
                  aria-controls="pkg-panel"
                  onClick={() => setFilters({ pm: t.id })}
                  className={cn(
                    'rounded px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring',
                    t.id === current && 'bg-background text-foreground shadow-xs',
                  )}
                >
                  {t.label}
                </button>
              ))}
            </div>
          )}
          <div className="flex flex-wrap items-center gap-3">
            <div className="relative">
              <Search aria-hidden className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
              <Input
                type="search"
                value={filters.q}
                onChange={(e) => setFilters({ q: e.target.value })}
                placeholder="Filter by name…"
                aria-label="Search packages"
                className="h-8 w-56 pl-8"
              />
            </div>
            {github ? null : (
              <label className="inline-flex items-center gap-2 text-sm">
                <input type="checkbox" checked={filters.mine} onChange={(e) => setFilters({ mine: e.target.checked })} className="size-4 accent-primary" />
                Only installed here
              </label>
            )}
          </div>
        </div>
        <div id="pkg-panel" {...(github ? {} : { role: 'tabpanel', 'aria-labelledby': `pkg-tab-${current}` })} className="grid grid-cols-[minmax(0,1fr)] gap-3">
          {github ? (
            <GithubTab q={q} onClearSearch={() => setFilters({ q: '' })} />
          ) : (
            <ManagerPanel
              tabId={current as ManagerTabId}
              q={q}
              filters={filters}
              setFilters={setFilters}
              readiness={readiness}
              onAction={onAction}
              busy={busy}
              active={active}
            />
          )}
        </div>
      </CardContent>
    </Card>
  );
}

/** One package manager's installed packages: readiness, listing errors, empty states and the table. */
function ManagerPanel({
  tabId,
  q,
  filters,
  setFilters,
  readiness,
  onAction,
  busy,
  active,
}: {
  tabId: ManagerTabId;
  q: string;
  filters: RuntimeFilters;
  setFilters: (p: Partial<RuntimeFilters>) => void;
  readiness: Record<string, Readiness> | undefined;
  onAction: (action: PackageAction, p: InstalledPackage) => void;
  busy: boolean;
  active: Map<string, string>;
}) {
  const tab = TABS.find((t) => t.id === tabId) ?? TABS[0];
  const list = usePackages(tab.manager);
  const all = list.data?.items;
  const rows = useMemo(() => {
    const matching = (all ?? []).filter((p) => (!q || p.name.toLowerCase().includes(q)) && (!filters.mine || p.managed));
    return sortRows(matching, filters.sort);
  }, [all, q, filters.mine, filters.sort]);
  const filtered = !!q || filters.mine;
  const ready = readiness?.[tab.readiness];
  const loading = list.isPending;
  return (
    <>
      {ready && !ready.ready ? (
        <p className="rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm">
          {tab.label} packages cannot be installed here: {ready.reason}.{ready.hint ? ` Fix: ${ready.hint}.` : ''}
        </p>
      ) : null}
      {list.data?.errors.map((e) => (
        <ErrorNote key={e.manager} error={`Could not list ${e.manager} packages: ${e.message}`} />
      ))}
      {list.error && !list.data ? (
        <RetryableError error={list.error} onRetry={() => void list.refetch()} />
      ) : !loading && !rows.length ? (
        filtered ? (
          <EmptyState
            icon={<SearchX />}
            title="No packages match"
            action={
              <Button variant="outline" onClick={() => setFilters({ q: '', mine: false })}>
                Show all {tab.label} packages
              </Button>
            }
          >
            {filters.mine
              ? 'Nothing matching was installed through Skilldock. Turn off “Only installed here” to include pre-installed packages.'
              : 'Try part of the name.'}
          </EmptyState>
        ) : (
          <EmptyState icon={<PackageOpen />} title={`No ${tab.label} packages found`}>
            Install one with the box above, e.g. <code className="font-mono">{EXAMPLE[tab.id]}</code>. Skills that declare it in their deps get it on their
            path.
          </EmptyState>
        )
      ) : (
        <div className={list.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}>
          <PackagesTable
            key={`${tab.id}|${q}|${filters.mine}|${filters.sort}`}
            rows={rows}
            loading={loading}
            sort={filters.sort}
            onSort={(sort) => setFilters({ sort })}
            onAction={onAction}
            busy={busy}
            active={active}
          />
        </div>
      )}
    </>
  );
}
