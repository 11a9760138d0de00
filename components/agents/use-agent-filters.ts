'use client';

import { parseSort, type SortOf, sortRows } from '../lists/sort-rows';
import { useUrlFilters } from '../ui/use-url-filters';
import type { AgentSummary } from './view';

export const SORTS = ['id', 'name', 'skills', 'cost'] as const;
type SortKey = (typeof SORTS)[number];
export type AgentSort = SortOf<SortKey>;
export const SCOPES = ['all', 'inherits', 'own', 'none'] as const;
export type ScopeFilter = (typeof SCOPES)[number];

export interface AgentFilters {
  q: string;
  sort: AgentSort;
  scope: ScopeFilter;
}

function parse(p: URLSearchParams): AgentFilters {
  const scope = p.get('scope') ?? '';
  return {
    q: (p.get('q') ?? '').slice(0, 200),
    sort: parseSort(p.get('sort'), SORTS, 'id'),
    scope: (SCOPES as readonly string[]).includes(scope) ? (scope as ScopeFilter) : 'all',
  };
}

function toQuery(f: AgentFilters): string {
  const p = new URLSearchParams();
  if (f.q) p.set('q', f.q);
  if (f.sort !== 'id') p.set('sort', f.sort);
  if (f.scope !== 'all') p.set('scope', f.scope);
  return p.toString();
}

/** Search, sort and scope filter of the agents list, in the URL. */
export function useAgentFilters() {
  return useUrlFilters(parse, toQuery);
}

const KEY: Record<SortKey, (a: AgentSummary) => string | number> = {
  id: (a) => a.id,
  name: (a) => a.name.toLowerCase(),
  skills: (a) => a.effective.count,
  cost: (a) => a.effective.chars,
};

export function applyAgentFilters(items: AgentSummary[], f: AgentFilters): AgentSummary[] {
  const q = f.q.trim().toLowerCase();
  const shown = items
    .filter((a) => f.scope === 'all' || a.scope.kind === f.scope)
    .filter((a) => !q || a.id.includes(q) || a.name.toLowerCase().includes(q) || a.description.toLowerCase().includes(q));
  return sortRows(shown, f.sort, KEY, (a) => a.id);
}
