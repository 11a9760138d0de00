'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { JOB_STATES, type JobFilters, type JobSort, type JobState, SORTS } from './view';

/** The list filters live in the URL so a filtered view can be shared and survives a reload. */
export function useJobFilters(): [JobFilters, (patch: Partial<JobFilters>) => void] {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();

  const filters = useMemo<JobFilters>(() => {
    const state = params.get('state') ?? '';
    const sort = params.get('sort') ?? '';
    return {
      state: (JOB_STATES as readonly string[]).includes(state) ? (state as JobState) : '',
      kind: (params.get('kind') ?? '').slice(0, 64),
      q: (params.get('q') ?? '').slice(0, 200),
      sort: (SORTS as readonly string[]).includes(sort) ? (sort as JobSort) : 'created_desc',
    };
  }, [params]);

  const update = useCallback(
    (patch: Partial<JobFilters>) => {
      const next = { ...filters, ...patch };
      const p = new URLSearchParams();
      if (next.state) p.set('state', next.state);
      if (next.kind) p.set('kind', next.kind);
      if (next.q) p.set('q', next.q);
      if (next.sort !== 'created_desc') p.set('sort', next.sort);
      const qs = p.toString();
      router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
    },
    [filters, pathname, router],
  );

  return [filters, update];
}

export const hasFilters = (f: JobFilters) => Boolean(f.state || f.kind || f.q);
