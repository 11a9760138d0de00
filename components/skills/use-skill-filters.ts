'use client';

import { useEffect, useState } from 'react';
import { useUrlFilters } from '../ui/use-url-filters';
import { SOURCE_ORDER, STATUS_TABS, type StatusTab } from './view';

export interface SkillFilters {
  status: StatusTab;
  q: string;
  /** One source kind, or '' for every source. */
  source: string;
}

function parse(params: URLSearchParams): SkillFilters {
  const status = params.get('status') ?? '';
  const source = params.get('source') ?? '';
  return {
    status: STATUS_TABS.some((t) => t.id === status) ? (status as StatusTab) : 'all',
    q: (params.get('q') ?? '').slice(0, 200),
    source: (SOURCE_ORDER as string[]).includes(source) ? source : '',
  };
}

function toQuery(f: SkillFilters): string {
  const p = new URLSearchParams();
  if (f.status !== 'all') p.set('status', f.status);
  if (f.q) p.set('q', f.q);
  if (f.source) p.set('source', f.source);
  return p.toString();
}

/** Status tab, search text and source, in the URL (shareable). */
export function useSkillFilters(): [SkillFilters, (patch: Partial<SkillFilters>) => void] {
  return useUrlFilters(parse, toQuery);
}

/** The value after it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms = 250): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}
