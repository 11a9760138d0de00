'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import { SOURCE_ORDER, STATUS_TABS, type StatusTab } from './types';

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

/**
 * Status tab, search text and source live in the URL (shareable). Held in state so typing is
 * instant, mirrored with history.replaceState; back/forward and links resync them.
 */
export function useSkillFilters(): [SkillFilters, (patch: Partial<SkillFilters>) => void] {
  const params = useSearchParams();
  const pathname = usePathname();
  const [filters, setFilters] = useState<SkillFilters>(() => parse(new URLSearchParams(params.toString())));
  const latest = useRef(filters);
  const qs = params.toString();
  useEffect(() => {
    const fromUrl = parse(new URLSearchParams(qs));
    if (toQuery(fromUrl) !== toQuery(latest.current)) {
      latest.current = fromUrl;
      setFilters(fromUrl);
    }
  }, [qs]);
  const update = useCallback(
    (patch: Partial<SkillFilters>) => {
      const next = { ...latest.current, ...patch };
      latest.current = next;
      setFilters(next);
      const q = toQuery(next);
      window.history.replaceState(window.history.state, '', q ? `${pathname}?${q}` : pathname);
    },
    [pathname],
  );
  return [filters, update];
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
