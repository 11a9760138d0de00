'use client';

import { useUrlFilters } from '../ui/use-url-filters';
import { MANAGER_TAB_IDS, type ManagerTabId, type PackageSort, SECTION_IDS, type SectionId, SORT_KEYS, UPDATE_SORTS, type UpdateSort } from './view';

export interface RuntimeFilters {
  /** The section shown (Overview, Packages, Updates, GitHub, Dependencies, Environment). */
  tab: SectionId;
  /** The package manager of the Packages section. */
  pm: ManagerTabId;
  q: string;
  /** Only packages Skilldock installed (not the host's own). */
  mine: boolean;
  sort: PackageSort;
  /** Updates table: one source ('' = all) and its sort. */
  src: string;
  usort: UpdateSort;
}

function parse(params: URLSearchParams): RuntimeFilters {
  const raw = params.get('tab') ?? '';
  const pm = params.get('pm') ?? '';
  const sort = params.get('sort') ?? '';
  // Links from before the sections named a manager in ?tab= (e.g. ?tab=node): they open that manager's packages.
  const legacyManager = (MANAGER_TAB_IDS as readonly string[]).includes(raw) ? (raw as ManagerTabId) : null;
  return {
    tab: legacyManager ? 'packages' : (SECTION_IDS as readonly string[]).includes(raw) ? (raw as SectionId) : 'overview',
    pm: legacyManager ?? ((MANAGER_TAB_IDS as readonly string[]).includes(pm) ? (pm as ManagerTabId) : 'system'),
    q: (params.get('q') ?? '').slice(0, 200),
    mine: params.get('mine') === '1',
    sort: (SORT_KEYS as readonly string[]).includes(sort) ? (sort as PackageSort) : 'name',
    src: /^[a-z]{2,10}$/.test(params.get('src') ?? '') ? params.get('src')! : '',
    usort: (UPDATE_SORTS as readonly string[]).includes(params.get('usort') ?? '') ? (params.get('usort') as UpdateSort) : 'source',
  };
}

export function runtimeQuery(f: RuntimeFilters): string {
  const p = new URLSearchParams();
  if (f.tab !== 'overview') p.set('tab', f.tab);
  if (f.pm !== 'system') p.set('pm', f.pm);
  if (f.q) p.set('q', f.q);
  if (f.mine) p.set('mine', '1');
  if (f.sort !== 'name') p.set('sort', f.sort);
  if (f.src) p.set('src', f.src);
  if (f.usort !== 'source') p.set('usort', f.usort);
  return p.toString();
}

/** The section, packages tab, search, toggle and sort, in the URL so a view can be shared. */
export function useRuntimeFilters(): [RuntimeFilters, (patch: Partial<RuntimeFilters>) => void] {
  return useUrlFilters(parse, runtimeQuery);
}
