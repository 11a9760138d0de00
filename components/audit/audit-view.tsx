'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { Lock, RefreshCw, ScrollText, SearchX } from 'lucide-react';
import { useState } from 'react';
import { accessApi } from '@/lib/api/contracts/access';
import { get } from '../api';
import { PageHeader } from '../shell/shell';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { EmptyState, ErrorNote, Skeleton } from '../ui/misc';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table';
import { useCan } from '../viewer';
import { AuditFiltersBar } from './audit-filters';
import { AuditRow } from './audit-row';
import { useAuditFilters } from './use-audit-filters';
import { PAGE_SIZE } from './view';

function SkeletonRows() {
  return Array.from({ length: 8 }, (_, n) => (
    <TR key={n}>
      <TD className="w-10 pr-0">
        <Skeleton className="size-5" />
      </TD>
      {[20, 40, 28, 36, 24].map((w, c) => (
        <TD key={c}>
          <Skeleton className="h-4" style={{ width: `${w * 4}px` }} />
        </TD>
      ))}
    </TR>
  ));
}

export function AuditView() {
  const can = useCan('audit.read');
  const { filters, setFilters, clear, active } = useAuditFilters();
  const [open, setOpen] = useState<Set<number>>(() => new Set());
  const q = useInfiniteQuery({
    queryKey: ['audit', filters],
    queryFn: ({ pageParam, signal }) => get(accessApi.listAudit, { query: { ...filters, before: pageParam, limit: PAGE_SIZE }, signal }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    enabled: can.allowed,
  });
  const toggle = (id: number) =>
    setOpen((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  const empty = q.isSuccess && items.length === 0;
  const header = (
    <PageHeader
      title="Audit log"
      description="Every write, newest first: who did it, from where, and what it changed. Secrets are masked."
      actions={
        can.allowed ? (
          <Button variant="outline" onClick={() => void q.refetch()} disabled={q.isFetching}>
            <RefreshCw className={cn(q.isFetching && !q.isFetchingNextPage && 'animate-spin')} /> Refresh
          </Button>
        ) : null
      }
    />
  );
  if (!can.allowed) {
    return (
      <>
        {header}
        <EmptyState icon={<Lock />} title="The audit log is not available to you">
          {can.why} Admins and owners can read who changed what; ask one of them if you need an entry.
        </EmptyState>
      </>
    );
  }
  return (
    <>
      {header}
      <div className="grid grid-cols-1 gap-4">
        <AuditFiltersBar filters={filters} setFilters={setFilters} clear={clear} active={active} hideClear={empty} />
        {q.error && !q.data ? (
          <ErrorNote error={q.error} />
        ) : empty ? (
          active ? (
            <EmptyState
              icon={<SearchX />}
              title="No audit entries match these filters"
              action={
                <Button variant="outline" onClick={clear}>
                  Clear filters
                </Button>
              }
            >
              Widen the time range, or look for part of an email, action or id.
            </EmptyState>
          ) : (
            <EmptyState icon={<ScrollText />} title="Nothing has been recorded yet">
              Sign-ins, changes to users and API tokens, and job actions will appear here.
            </EmptyState>
          )
        ) : (
          <div className="rounded-lg border bg-card">
            <Table aria-label="Audit log" aria-busy={q.isPending || undefined}>
              <THead>
                <TR className="hover:bg-transparent">
                  <TH className="relative w-10 pr-0">
                    <span className="sr-only">Details</span>
                  </TH>
                  <TH>Time</TH>
                  <TH>Actor</TH>
                  <TH>Action</TH>
                  <TH>Target</TH>
                  <TH>IP</TH>
                </TR>
              </THead>
              <TBody>
                {q.isPending ? <SkeletonRows /> : items.map((e) => <AuditRow key={e.id} e={e} open={open.has(e.id)} onToggle={() => toggle(e.id)} />)}
              </TBody>
            </Table>
            <div className="flex flex-wrap items-center justify-between gap-2 border-t px-4 py-3 text-xs text-muted-foreground">
              <span aria-live="polite">
                {q.isPending ? 'Loading…' : `${items.length} ${items.length === 1 ? 'entry' : 'entries'} shown${q.hasNextPage ? '' : ' — that is all'}`}
              </span>
              {q.error ? <ErrorNote error={q.error} className="py-1" /> : null}
              {q.hasNextPage ? (
                <Button variant="outline" size="sm" onClick={() => void q.fetchNextPage()} disabled={q.isFetchingNextPage}>
                  {q.isFetchingNextPage ? 'Loading…' : 'Older entries'}
                </Button>
              ) : null}
            </div>
          </div>
        )}
      </div>
    </>
  );
}
