'use client';

import Link from 'next/link';
import { ShowMore, usePagedRows } from '../lists/show-more';
import { Badge } from '../ui/badge';
import { SortHeader } from '../ui/sort-header';
import { SkeletonRows, Table, TBody, TD, TH, THead, TR } from '../ui/table';
import { DriftBadge, LastSync, StatusBadge } from './status-badges';
import type { GatewaySort } from './use-gateway-filters';
import { type Gateway, LOCATION_LABELS, locationText, locationType } from './view';

export function GatewaysTable({ rows, loading, sort, onSort }: { rows: Gateway[]; loading: boolean; sort: GatewaySort; onSort: (s: GatewaySort) => void }) {
  const paged = usePagedRows(rows);
  return (
    <>
      <Table aria-label="Gateways" aria-busy={loading || undefined}>
        <THead>
          <TR className="hover:bg-transparent">
            <SortHeader label="Gateway" field="name" sort={sort} onSort={onSort} />
            <TH className="hidden lg:table-cell">Where it lives</TH>
            <SortHeader label="Status" field="status" sort={sort} onSort={onSort} />
            <TH className="hidden md:table-cell">Version</TH>
            <TH className="hidden sm:table-cell">Agents</TH>
            <SortHeader label="Drift" field="drift" sort={sort} onSort={onSort} />
            <SortHeader label="Last sync" field="synced" sort={sort} onSort={onSort} />
          </TR>
        </THead>
        <TBody>
          {loading ? (
            <SkeletonRows rows={3} cols={7} />
          ) : (
            paged.visible.map((g) => (
              <TR key={g.id} data-testid={`gateway-row-${g.name}`}>
                <TD className="max-w-64">
                  <Link
                    href={`/gateways/${encodeURIComponent(g.id)}`}
                    className="font-medium hover:underline focus-visible:outline-2 focus-visible:outline-ring"
                  >
                    {g.name}
                  </Link>
                  <div className="flex items-center gap-1 text-xs text-muted-foreground">
                    <Badge variant="outline">{g.kind}</Badge>
                    {g.autoSync ? null : <span>manual sync</span>}
                  </div>
                </TD>
                <TD className="hidden max-w-72 lg:table-cell">
                  <div className="text-xs text-muted-foreground">{LOCATION_LABELS[locationType(g.location)]}</div>
                  <div className="truncate font-mono text-xs" title={locationText(g.location)}>
                    {locationText(g.location)}
                  </div>
                </TD>
                <TD>
                  <StatusBadge status={g.status} />
                </TD>
                <TD className="hidden font-mono text-xs md:table-cell">{g.status?.version ?? <span className="text-muted-foreground">–</span>}</TD>
                <TD className="hidden tabular-nums sm:table-cell" data-testid="gateway-agents">
                  {g.agentIds.length || <span className="text-muted-foreground">–</span>}
                </TD>
                <TD>
                  <DriftBadge drift={g.drift} />
                </TD>
                <TD>
                  <LastSync sync={g.lastSync} />
                </TD>
              </TR>
            ))
          )}
        </TBody>
      </Table>
      <ShowMore left={paged.left} onMore={paged.more} />
    </>
  );
}
