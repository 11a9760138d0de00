'use client';

import { ArrowUpCircle, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { Confirm } from '../ui/dialog';
import { Tip } from '../ui/misc';
import { SortHeader } from '../ui/sort-header';
import { SkeletonRows, Table, TBody, TD, TH, THead, TR } from '../ui/table';
import { RelativeTime, relativeTime } from '../ui/time';
import { useCan } from '../viewer';
import { useUpdates } from './queries';
import { JobProgressChip } from './updates-jobs';
import { type InstalledPackage, type PackageAction, type PackageSort, pkgKey, updateOffer } from './view';

export const PAGE = 100;

/**
 * Below the md breakpoint (phones, small tablets) each row is a card: name, version and source
 * stacked on the left, the actions on the right, the sort buttons in a row above. Nothing is wider
 * than the screen, so the page never scrolls sideways; names and versions truncate with their full
 * text in a title. From md on it is a table, scrolling inside its own region when it must.
 */
const PHONE = {
  table: 'max-md:block',
  head: 'max-md:block',
  headRow: 'max-md:flex max-md:gap-4 max-md:[&>th:not([aria-sort])]:hidden',
  headCell: 'max-md:h-8 max-md:px-0',
  row: 'max-md:grid max-md:grid-cols-[minmax(0,1fr)_auto] max-md:gap-x-3 max-md:gap-y-1 max-md:py-2',
  cell: 'max-md:col-start-1 max-md:block max-md:max-w-none max-md:p-0',
  actions: 'max-md:col-start-2 max-md:row-span-3 max-md:row-start-1 max-md:block max-md:self-start max-md:p-0',
} as const;

/** One manager's packages: sortable, paged by "Show more"; managed rows can be updated or uninstalled. */
export function PackagesTable({
  rows,
  loading,
  sort,
  onSort,
  onAction,
  busy,
  active,
}: {
  rows: InstalledPackage[];
  loading: boolean;
  sort: PackageSort;
  onSort: (s: PackageSort) => void;
  onAction: (action: PackageAction, p: InstalledPackage) => void;
  /** A row action is being requested (its job does not exist yet). */
  busy: boolean;
  /** Package (pkgKey) → the id of its install/update/uninstall job still running. */
  active: Map<string, string>;
}) {
  const can = useCan('packages.write');
  const [shown, setShown] = useState(PAGE);
  const [confirming, setConfirming] = useState<InstalledPackage | null>(null);
  const visible = rows.slice(0, shown);
  const updates = useUpdates().data;
  const upToDate = (p: InstalledPackage) => {
    const o = updateOffer(updates, p.manager, p.name);
    return o.state === 'latest' ? `${p.name} ${p.version} is the latest version (checked ${relativeTime(o.checkedAt)}).` : undefined;
  };
  const updateTitle = (p: InstalledPackage) => {
    const o = updateOffer(updates, p.manager, p.name);
    return o.state === 'available' ? `Update ${p.name} to ${o.latest}` : o.state === 'latest' ? undefined : `Update ${p.name} to the newest version`;
  };

  return (
    <>
      <Table aria-label="Installed packages" aria-busy={loading || undefined} scrollLabel="Installed packages, scrolls sideways" className={PHONE.table}>
        <THead className={PHONE.head}>
          <TR className={cn('hover:bg-transparent', PHONE.headRow)}>
            <SortHeader label="Name" field="name" sort={sort} onSort={onSort} className={PHONE.headCell} />
            <SortHeader label="Version" field="version" sort={sort} onSort={onSort} className={PHONE.headCell} />
            <TH className="max-md:hidden">Source</TH>
            <TH className="hidden md:table-cell">Installed</TH>
            <TH className="hidden md:table-cell">By</TH>
            <TH className="hidden 2xl:table-cell">Summary</TH>
            <TH className="text-right max-md:hidden">Actions</TH>
          </TR>
        </THead>
        <TBody className="max-md:block">
          {loading ? (
            <SkeletonRows rows={6} cols={7} />
          ) : (
            visible.map((p) => {
              const jobId = p.managed ? active.get(pkgKey(p.manager, p.name)) : undefined;
              const rowBusy = busy || !!jobId;
              return (
                <TR key={`${p.manager}:${p.name}:${p.location ?? ''}`} data-package={p.name} data-managed={p.managed} className={PHONE.row}>
                  <TD className={cn('max-w-72', PHONE.cell)}>
                    <span
                      className="block truncate font-mono text-xs font-medium"
                      title={p.location ? `${p.name} (${p.location})` : p.name}
                      data-slot="package-name"
                    >
                      {p.name}
                    </span>
                    {p.realPackage && p.realPackage !== p.name ? (
                      <span className="block truncate text-xs text-muted-foreground" title={p.realPackage}>
                        provided by {p.realPackage}
                      </span>
                    ) : null}
                  </TD>
                  <TD className={cn('max-w-40 truncate font-mono text-xs', PHONE.cell)} title={p.version} data-slot="package-version">
                    {p.version}
                  </TD>
                  <TD className={PHONE.cell}>
                    <div className="flex flex-wrap items-center gap-1.5">
                      {p.managed ? (
                        <Badge variant="success" title="Installed through Skilldock into the runtime dir">
                          Installed here
                        </Badge>
                      ) : (
                        <Badge variant="secondary" title="Part of the host or image; read only">
                          Pre-installed
                        </Badge>
                      )}
                      {jobId ? <JobProgressChip id={jobId} label={p.name} /> : null}
                    </div>
                  </TD>
                  <TD className="hidden text-xs md:table-cell">
                    {p.managed ? <RelativeTime iso={p.installedAt} /> : <span className="text-muted-foreground">—</span>}
                  </TD>
                  <TD className="hidden max-w-40 truncate text-xs md:table-cell" title={p.installedBy}>
                    {p.managed && p.installedBy ? p.installedBy : <span className="text-muted-foreground">—</span>}
                  </TD>
                  <TD className="hidden max-w-96 truncate text-xs text-muted-foreground 2xl:table-cell" title={p.summary}>
                    {p.summary ?? '—'}
                  </TD>
                  <TD className={cn('text-right', PHONE.actions)}>
                    {p.managed ? (
                      <div className="inline-flex gap-1.5">
                        <Tip content={can.why ?? upToDate(p)}>
                          <Button
                            variant="outline"
                            size="sm"
                            disabled={!can.allowed || rowBusy || !!upToDate(p)}
                            onClick={() => onAction('update', p)}
                            aria-label="Update"
                            title={updateTitle(p)}
                          >
                            <ArrowUpCircle aria-hidden /> <span className="max-md:sr-only">Update</span>
                          </Button>
                        </Tip>
                        <Tip content={can.why}>
                          <Button
                            variant="outline"
                            size="sm"
                            disabled={!can.allowed || rowBusy}
                            onClick={() => setConfirming(p)}
                            aria-label="Uninstall"
                            title={`Uninstall ${p.name}`}
                            className="text-destructive hover:text-destructive"
                          >
                            <Trash2 aria-hidden /> <span className="max-md:sr-only">Uninstall</span>
                          </Button>
                        </Tip>
                      </div>
                    ) : (
                      <span className="text-xs text-muted-foreground">read only</span>
                    )}
                  </TD>
                </TR>
              );
            })
          )}
        </TBody>
      </Table>
      <div className="flex items-center justify-between gap-2 text-xs text-muted-foreground">
        <span aria-live="polite">
          {loading ? 'Loading packages…' : `Showing ${visible.length.toLocaleString('en')} of ${rows.length.toLocaleString('en')}`}
        </span>
        {rows.length > shown ? (
          <Button variant="outline" size="sm" onClick={() => setShown((n) => n + PAGE)}>
            Show more
          </Button>
        ) : null}
      </div>
      <Confirm
        open={!!confirming}
        onOpenChange={(o) => !o && setConfirming(null)}
        title={confirming ? `Uninstall ${confirming.name}?` : 'Uninstall'}
        description={confirming ? `Uninstall ${confirming.name} ${confirming.version}? Skills that need it will stop working until it is installed again.` : ''}
        confirmLabel="Uninstall"
        busy={busy}
        onConfirm={() => {
          if (confirming) onAction('uninstall', confirming);
          setConfirming(null);
        }}
      />
    </>
  );
}
