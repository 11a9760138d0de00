'use client';

import { ArrowUpCircle, CircleAlert, Lock, LockOpen, SearchX } from 'lucide-react';
import Link from 'next/link';
import { useMemo } from 'react';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Select } from '../ui/input';
import { EmptyState, Tip } from '../ui/misc';
import { SortHeader } from '../ui/sort-header';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table';
import { RelativeTime } from '../ui/time';
import { useCan } from '../viewer';
import { JobProgressChip } from './updates-jobs';
import { SOURCE_LABEL, SourcePill } from './updates-source';
import type { RuntimeFilters } from './use-runtime-filters';
import { pkgKey, type UpdateItem, type UpdateSort, type UpdatesView } from './view';

/** A row of the table: a pending update, or a pin on a package that has none pending. */
export type UpdateRow = UpdateItem & { pendingUpdate: boolean };

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function rowsOf(view: UpdatesView): UpdateRow[] {
  const rows: UpdateRow[] = view.updates.map((u) => ({ ...u, pendingUpdate: true }));
  for (const p of view.pins) {
    if (rows.some((r) => r.source === p.source && r.name === p.name)) continue;
    rows.push({
      source: p.source,
      name: p.name,
      spec: `${p.source}:${p.name}`,
      current: '',
      latest: '',
      prerelease: false,
      checkedAt: '',
      firstSeenAt: '',
      checkError: null,
      pinned: true,
      pinReason: p.reason,
      lastJobId: null,
      lastError: null,
      lastAttemptAt: null,
      pendingUpdate: false,
    });
  }
  return rows;
}

function sortRows(rows: UpdateRow[], sort: UpdateSort): UpdateRow[] {
  const desc = sort.startsWith('-');
  const bySource = sort.endsWith('source');
  const cmp = (a: UpdateRow, b: UpdateRow) =>
    bySource
      ? collator.compare(a.source, b.source) || collator.compare(a.name, b.name)
      : collator.compare(a.name, b.name) || collator.compare(a.source, b.source);
  return [...rows].sort((a, b) => (desc ? -cmp(a, b) : cmp(a, b)));
}

/** Every pending update across sources, with per-row Update and Pin/Unpin. */
export function UpdatesTable({
  view,
  filters,
  setFilters,
  active,
  onUpdate,
  onPin,
  onUnpin,
  starting,
}: {
  view: UpdatesView;
  filters: RuntimeFilters;
  setFilters: (p: Partial<RuntimeFilters>) => void;
  active: Map<string, string>;
  onUpdate: (u: UpdateRow) => void;
  onPin: (u: UpdateRow) => void;
  onUnpin: (u: UpdateRow) => void;
  /** A spec whose request is on its way (before its job exists). */
  starting: string | null;
}) {
  const can = useCan('packages.write');
  const all = useMemo(() => rowsOf(view), [view]);
  const sources = useMemo(() => [...new Set([...view.sources.map((s) => s.source), ...all.map((r) => r.source)])], [view.sources, all]);
  const rows = useMemo(
    () =>
      sortRows(
        all.filter((r) => !filters.src || r.source === filters.src),
        filters.usort,
      ),
    [all, filters.src, filters.usort],
  );
  if (!all.length) return null;

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <CardTitle>Updates</CardTitle>
          <CardDescription>Newer versions of packages installed here. Pinned packages are still checked but never offered by Update All.</CardDescription>
        </div>
        <Select aria-label="Filter updates by source" value={filters.src} onChange={(e) => setFilters({ src: e.target.value })} className="h-8 w-40">
          <option value="">All sources ({all.length})</option>
          {sources.map((s) => (
            <option key={s} value={s}>
              {SOURCE_LABEL[s] ?? s} ({all.filter((r) => r.source === s).length})
            </option>
          ))}
        </Select>
      </CardHeader>
      <CardContent>
        {!rows.length ? (
          <EmptyState
            icon={<SearchX />}
            title={`No ${SOURCE_LABEL[filters.src] ?? filters.src} updates`}
            action={
              <Button variant="outline" onClick={() => setFilters({ src: '' })}>
                Show all sources
              </Button>
            }
          >
            Other sources have updates or pins; show them all.
          </EmptyState>
        ) : (
          <Table aria-label="Available updates">
            <THead>
              <TR className="hover:bg-transparent">
                <SortHeader label="Source" field="source" sort={filters.usort} onSort={(usort) => setFilters({ usort })} />
                <SortHeader label="Name" field="name" sort={filters.usort} onSort={(usort) => setFilters({ usort })} />
                <TH>Version</TH>
                <TH className="hidden md:table-cell">Checked</TH>
                <TH>Status</TH>
                <TH className="text-right">Actions</TH>
              </TR>
            </THead>
            <TBody>
              {rows.map((u) => {
                const jobId = active.get(pkgKey(u.source, u.name));
                const busy = !!jobId || starting === u.spec;
                return (
                  <TR key={u.spec} data-update={u.name} data-source={u.source}>
                    <TD>
                      <SourcePill source={u.source} />
                    </TD>
                    <TD className="max-w-60">
                      <span className="block truncate font-mono text-xs font-medium" title={u.name}>
                        {u.name}
                      </span>
                    </TD>
                    <TD>
                      {u.pendingUpdate ? (
                        <span className="inline-flex flex-wrap items-center gap-1.5 font-mono text-xs">
                          <span>{u.current}</span>
                          <span role="img" aria-label="to">
                            →
                          </span>
                          <span className="font-semibold">{u.latest}</span>
                          {u.prerelease ? <Badge variant="warning">pre-release</Badge> : null}
                        </span>
                      ) : (
                        <span className="text-xs text-muted-foreground">no update pending</span>
                      )}
                    </TD>
                    <TD className="hidden text-xs md:table-cell">
                      <span className="inline-flex items-center gap-1">
                        <RelativeTime iso={u.checkedAt || null} />
                        {u.checkError ? (
                          <Tip content={`The last check of ${u.name} failed (${u.checkError}); this entry is from an earlier check.`}>
                            <CircleAlert aria-label={`Check of ${u.name} failed`} className="size-4 text-warning" />
                          </Tip>
                        ) : null}
                      </span>
                    </TD>
                    <TD>
                      <div className="flex flex-wrap items-center gap-1.5">
                        {jobId ? <JobProgressChip id={jobId} label={u.name} /> : null}
                        {u.pinned ? (
                          <Badge variant="secondary" title={u.pinReason ? `Pinned: ${u.pinReason}` : 'Pinned'}>
                            <Lock aria-hidden className="size-3" /> pinned{u.pinReason ? `: ${u.pinReason}` : ''}
                          </Badge>
                        ) : null}
                        {!jobId && u.lastError ? (
                          <span className="inline-flex max-w-72 items-center gap-1 text-xs text-destructive">
                            <span className="truncate" title={u.lastError}>
                              Last update failed: {u.lastError}
                            </span>
                            {u.lastJobId ? (
                              <Link href={`/jobs/${u.lastJobId}`} className="shrink-0 text-primary hover:underline">
                                job
                              </Link>
                            ) : null}
                          </span>
                        ) : null}
                      </div>
                    </TD>
                    <TD className="text-right">
                      <div className="inline-flex gap-1.5">
                        {u.pendingUpdate ? (
                          <Tip content={can.why ?? (u.pinned ? 'Pinned: unpin it to update.' : undefined)}>
                            <Button
                              variant="outline"
                              size="sm"
                              disabled={!can.allowed || busy || u.pinned}
                              onClick={() => onUpdate(u)}
                              aria-label={`Update ${u.name}`}
                            >
                              <ArrowUpCircle aria-hidden /> {busy ? 'Updating…' : 'Update'}
                            </Button>
                          </Tip>
                        ) : null}
                        <Tip content={can.why}>
                          {u.pinned ? (
                            <Button variant="outline" size="sm" disabled={!can.allowed} onClick={() => onUnpin(u)} aria-label={`Unpin ${u.name}`}>
                              <LockOpen aria-hidden /> Unpin
                            </Button>
                          ) : (
                            <Button variant="outline" size="sm" disabled={!can.allowed} onClick={() => onPin(u)} aria-label={`Pin ${u.name}`}>
                              <Lock aria-hidden /> Pin
                            </Button>
                          )}
                        </Tip>
                      </div>
                    </TD>
                  </TR>
                );
              })}
            </TBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
