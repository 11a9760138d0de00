'use client';

import { useUrlFilters } from '../ui/use-url-filters';
import { type PackageSort, SORT_KEYS, TAB_IDS, type TabId, UPDATE_SORTS, type UpdateSort } from './view';

export interface RuntimeFilters {
  tab: TabId;
  q: string;
  /** Only packages Skilldock installed (not the host's own). */
  mine: boolean;
  sort: PackageSort;
  /** Updates table: one source ('' = all) and its sort. */
  src: string;
  usort: UpdateSort;
}

function parse(params: URLSearchParams): RuntimeFilters {
  const tab = params.get('tab') ?? '';
  const sort = params.get('sort') ?? '';
  return {
    tab: (TAB_IDS as readonly string[]).includes(tab) ? (tab as TabId) : 'system',
    q: (params.get('q') ?? '').slice(0, 200),
    mine: params.get('mine') === '1',
    sort: (SORT_KEYS as readonly string[]).includes(sort) ? (sort as PackageSort) : 'name',
    src: /^[a-z]{2,10}$/.test(params.get('src') ?? '') ? params.get('src')! : '',
    usort: (UPDATE_SORTS as readonly string[]).includes(params.get('usort') ?? '') ? (params.get('usort') as UpdateSort) : 'source',
  };
}

function toQuery(f: RuntimeFilters): string {
  const p = new URLSearchParams();
  if (f.tab !== 'system') p.set('tab', f.tab);
  if (f.q) p.set('q', f.q);
  if (f.mine) p.set('mine', '1');
  if (f.sort !== 'name') p.set('sort', f.sort);
  if (f.src) p.set('src', f.src);
  if (f.usort !== 'source') p.set('usort', f.usort);
  return p.toString();
}

/** The packages tab, search, toggle and sort, in the URL so a view can be shared. */
export function useRuntimeFilters(): [RuntimeFilters, (patch: Partial<RuntimeFilters>) => void] {
  return useUrlFilters(parse, toQuery);
}
