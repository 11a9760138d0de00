'use client';

import { Plus } from 'lucide-react';
import { useState } from 'react';
import { FilterBar, optionsOf, SearchFilter, SelectFilter } from '../lists/filter-bar';
import { NoMatchState, QueryListState } from '../lists/query-list-state';
import { PageHeader } from '../shell/shell';
import { usePaletteIntent } from '../shell/use-palette-intent';
import { Button } from '../ui/button';
import { Card, CardContent } from '../ui/card';
import { Tip } from '../ui/misc';
import { useCan } from '../viewer';
import { ConnectDialog } from './connect-dialog';
import { ConnectGuide } from './connect-guide';
import { FolderClientsCard } from './folder-clients-card';
import { GatewaysTable } from './gateways-table';
import { useGateways } from './queries';
import { applyGatewayFilters, KIND_FILTERS, STATUS_FILTERS, useGatewayFilters } from './use-gateway-filters';

const STATUS_OPTIONS = optionsOf(STATUS_FILTERS, {
  all: 'Every status',
  reachable: 'Reachable',
  unreachable: 'Unreachable',
  invalid: 'Config invalid',
  'read-only': 'Read-only',
  unchecked: 'Not tested',
  drift: 'With drift',
});
const KIND_OPTIONS = optionsOf(KIND_FILTERS, { all: 'Every kind', openclaw: 'OpenClaw', folder: 'Folder clients' });

/** /gateways: every connected agent gateway with its status, drift and last sync, and the connect dialog. */
export function GatewaysPage() {
  const list = useGateways();
  const can = useCan('gateways.write');
  const [filters, setFilters] = useGatewayFilters();
  const [connecting, setConnecting] = useState(false);
  // ?new=1 (the command palette's "Connect a gateway") opens the dialog once, then leaves the URL.
  usePaletteIntent('new', can.allowed, () => setConnecting(true));
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
          <FilterBar filtered={filtered} onReset={reset}>
            <SearchFilter label="Search gateways" placeholder="Search gateways…" value={filters.q} onChange={(q) => setFilters({ q })} className="w-56" />
            <SelectFilter label="Status" value={filters.status} options={STATUS_OPTIONS} onChange={(status) => setFilters({ status })} className="w-40" />
            <SelectFilter label="Kind" value={filters.kind} options={KIND_OPTIONS} onChange={(kind) => setFilters({ kind })} className="w-36" />
          </FilterBar>
          {filters.kind === 'folder' ? null : (
            <QueryListState
              query={list}
              total={(d) => d.items.length}
              matched={rows.length}
              empty={data ? <ConnectGuide roots={data.roots} action={can.allowed ? connectButton : null} /> : null}
              noMatch={
                <NoMatchState title="No gateways match" resetLabel="Show every gateway" onReset={reset}>
                  Nothing matches these filters; try other words or another status.
                </NoMatchState>
              }
            >
              <GatewaysTable rows={rows} loading={!data} sort={filters.sort} onSort={(sort) => setFilters({ sort })} />
            </QueryListState>
          )}
        </CardContent>
      </Card>
      {filters.kind === 'openclaw' ? null : <FolderClientsCard q={filters.q} />}
      {connecting ? <ConnectDialog open onOpenChange={setConnecting} roots={data?.roots ?? []} /> : null}
    </>
  );
}
