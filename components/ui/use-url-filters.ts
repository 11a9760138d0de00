'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Filters that live in the URL so a view can be shared. They are held in state (controls respond at
 * once, quick successive changes all land) and mirrored into the URL with history.replaceState, which
 * needs no server round trip; back/forward and links resync them. Each page gives its own parse
 * (URL → filters, with defaults for anything invalid) and toQuery (filters → query string).
 */
export function useUrlFilters<F>(parse: (params: URLSearchParams) => F, toQuery: (f: F) => string): [F, (patch: Partial<F>) => void] {
  const params = useSearchParams();
  const pathname = usePathname();
  const [filters, setFilters] = useState<F>(() => parse(new URLSearchParams(params.toString())));
  const latest = useRef(filters);

  const qs = params.toString();
  useEffect(() => {
    const fromUrl = parse(new URLSearchParams(qs));
    if (toQuery(fromUrl) !== toQuery(latest.current)) {
      latest.current = fromUrl;
      setFilters(fromUrl);
    }
  }, [qs, parse, toQuery]);

  const update = useCallback(
    (patch: Partial<F>) => {
      const next = { ...latest.current, ...patch };
      latest.current = next;
      setFilters(next);
      const q = toQuery(next);
      window.history.replaceState(window.history.state, '', q ? `${pathname}?${q}` : pathname);
    },
    [pathname, toQuery],
  );

  return [filters, update];
}
