'use client';

import { Plus, SearchX } from 'lucide-react';
import { useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { PageHeader } from '../shell/shell';
import { Button } from '../ui/button';
import { Card, CardContent } from '../ui/card';
import { Input, Select } from '../ui/input';
import { EmptyState, RetryableError, Tip } from '../ui/misc';
import { useCan } from '../viewer';
import { ConnectDialog } from './connect-dialog';
import { ConnectGuide } from './connect-guide';
import { FolderClientsCard } from './folder-clients-card';
import { GatewaysTable } from './gateways-table';
import { useGateways } from './queries';
import { applyGatewayFilters, KIND_FILTERS, STATUS_FILTERS, useGatewayFilters } from './use-gateway-filters';

const STATUS_FILTER_LABELS = {
  all: 'Every status',
  reachable: 'Reachable',
  unreachable: 'Unreachable',
  invalid: 'Config invalid',
  'read-only': 'Read-only',
  unchecked: 'Not tested',
  drift: 'With drift',
} as const;
const KIND_LABELS = { all: 'Every kind', openclaw: 'OpenClaw', folder: 'Folder clients' } as const;

/** /gateways: every connected agent gateway with its status, drift and last sync, and the connect dialog. */
export function GatewaysPage() {
  const list = useGateways();
  const can = useCan('gateways.write');
  const [filters, setFilters] = useGatewayFilters();
  const [connecting, setConnecting] = useState(false);
  // ?new=1 (the command palette's "Connect a gateway") opens the dialog once, then leaves the URL.
  const wantsNew = useSearchParams().get('new') === '1';
  useEffect(() => {
    if (!wantsNew) return;
    if (can.allowed) setConnecting(true);
    const url = new URL(window.location.href);
    url.searchParams.delete('new');
    window.history.replaceState(window.history.state, '', url.pathname + url.search);
  }, [wantsNew, can.allowed]);
  const data = list.data;
  const rows = data ? applyGatewayFilters(data.items, filters) : [];
  const filtered = !!filters.q || filters.status !== 'all' || filters.kind !== 'all';
  const reset = () => setFilters({ q: '', status: 'all', kind: 'all' });
  const connectButton = (
    <Tip content={can.why}>
      <Button disabled={!can.allowed} onClick={() => setConnecting(true)} data-testid="connect-gateway">
        <Plus aria-hidden /> Connect gateway
      </Button>
    </Tip>
  );
  return (
    <>
      <PageHeader
        title="Gateways"
        description="The agent gateways Skilldock drives: their agents' allowlists and skills are written into them on every change, and checked against what each agent really sees."
        actions={connectButton}
      />
      <Card>
        <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-3 pt-5">
          <div className="flex flex-wrap items-center gap-2">
            <Input
              type="search"
              value={filters.q}
              onChange={(e) => setFilters({ q: e.target.value })}
              placeholder="Search gateways…"
              aria-label="Search gateways"
              className="h-8 w-56"
            />
            <Select aria-label="Status" value={filters.status} onChange={(e) => setFilters({ status: e.target.value as never })} className="h-8 w-40">
              {STATUS_FILTERS.map((s) => (
                <option key={s} value={s}>
                  {STATUS_FILTER_LABELS[s]}
                </option>
              ))}
            </Select>
            <Select aria-label="Kind" value={filters.kind} onChange={(e) => setFilters({ kind: e.target.value as never })} className="h-8 w-36">
              {KIND_FILTERS.map((k) => (
                <option key={k} value={k}>
                  {KIND_LABELS[k]}
                </option>
              ))}
            </Select>
            {filtered ? (
              <Button variant="ghost" size="sm" onClick={reset}>
                Reset filters
              </Button>
            ) : null}
          </div>
          {filters.kind === 'folder' ? null : list.error && !data ? (
            <RetryableError error={list.error} onRetry={() => void list.refetch()} />
          ) : data && data.items.length === 0 ? (
            <ConnectGuide roots={data.roots} action={can.allowed ? connectButton : null} />
          ) : data && rows.length === 0 ? (
            <EmptyState
              icon={<SearchX />}
              title="No gateways match"
              action={
                <Button variant="outline" onClick={reset}>
                  Show every gateway
                </Button>
              }
            >
              Nothing matches these filters; try other words or another status.
            </EmptyState>
          ) : (
            <GatewaysTable rows={rows} loading={!data} sort={filters.sort} onSort={(sort) => setFilters({ sort })} />
          )}
        </CardContent>
      </Card>
      {filters.kind === 'openclaw' ? null : <FolderClientsCard q={filters.q} />}
      {connecting ? <ConnectDialog open onOpenChange={setConnecting} roots={data?.roots ?? []} /> : null}
    </>
  );
}
