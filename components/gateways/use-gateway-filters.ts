'use client';

import { parseSort, type SortOf, sortRows } from '../lists/sort-rows';
import { useUrlFilters } from '../ui/use-url-filters';
import { type Gateway, type StatusKey, statusKey } from './view';

export const SORTS = ['name', 'status', 'drift', 'synced'] as const;
type SortKey = (typeof SORTS)[number];
export type GatewaySort = SortOf<SortKey>;
export const STATUS_FILTERS = ['all', 'reachable', 'unreachable', 'invalid', 'read-only', 'unchecked', 'drift'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];
export const KIND_FILTERS = ['all', 'openclaw', 'folder'] as const;
export type KindFilter = (typeof KIND_FILTERS)[number];

export interface GatewayFilters {
  q: string;
  sort: GatewaySort;
  status: StatusFilter;
  kind: KindFilter;
}

const pick = <T extends string>(all: readonly T[], v: string | null, fallback: T): T => ((all as readonly string[]).includes(v ?? '') ? (v as T) : fallback);

function parse(p: URLSearchParams): GatewayFilters {
  return {
    q: (p.get('q') ?? '').slice(0, 200),
    sort: parseSort(p.get('sort'), SORTS, 'name'),
    status: pick(STATUS_FILTERS, p.get('status'), 'all'),
    kind: pick(KIND_FILTERS, p.get('kind'), 'all'),
  };
}

function toQuery(f: GatewayFilters): string {
  const p = new URLSearchParams();
  if (f.q) p.set('q', f.q);
  if (f.sort !== 'name') p.set('sort', f.sort);
  if (f.status !== 'all') p.set('status', f.status);
  if (f.kind !== 'all') p.set('kind', f.kind);
  return p.toString();
}

/** Search, sort, status and kind filters of the gateways list, in the URL. */
export function useGatewayFilters() {
  return useUrlFilters(parse, toQuery);
}

const STATUS_ORDER: Record<StatusKey, number> = { unreachable: 0, invalid: 1, unchecked: 2, 'read-only': 3, reachable: 4 };

const KEY: Record<SortKey, (g: Gateway) => string | number> = {
  name: (g) => g.name.toLowerCase(),
  status: (g) => STATUS_ORDER[statusKey(g.status)],
  drift: (g) => g.drift?.count ?? -1,
  synced: (g) => g.lastSync?.at ?? '',
};

export function applyGatewayFilters(items: Gateway[], f: GatewayFilters): Gateway[] {
  const q = f.q.trim().toLowerCase();
  const shown = items
    .filter((g) => f.kind === 'all' || g.kind === f.kind)
    .filter((g) => f.status === 'all' || (f.status === 'drift' ? (g.drift?.count ?? 0) > 0 : statusKey(g.status) === f.status))
    .filter(
      (g) =>
        !q ||
        g.name.toLowerCase().includes(q) ||
        g.id.toLowerCase().includes(q) ||
        JSON.stringify(g.location).toLowerCase().includes(q) ||
        g.agentIds.some((a) => a.includes(q)),
    );
  return sortRows(shown, f.sort, KEY, (g) => g.name);
}
