'use client';

import { format, formatISO, isValid } from 'date-fns';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { type AuditFilters, FILTER_KEYS } from './view';

/** A datetime-local value ("2025-01-31T14:05") in the browser's zone → ISO 8601 with its offset. */
export function localToIso(local: string): string {
  if (!local) return '';
  const d = new Date(local);
  return isValid(d) ? formatISO(d) : '';
}

/** ISO 8601 → a datetime-local value in the browser's zone. */
export function isoToLocal(iso: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  return isValid(d) ? format(d, "yyyy-MM-dd'T'HH:mm") : '';
}

/** The audit filters, read from and written to the URL so a filtered view can be shared. */
export function useAuditFilters() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const key = params.toString();
  const filters = useMemo<AuditFilters>(() => {
    const p = new URLSearchParams(key);
    const get = (k: string) => p.get(k)?.trim() ?? '';
    const iso = (k: string) => {
      const d = new Date(get(k));
      return get(k) && isValid(d) ? formatISO(d) : '';
    };
    return { actor: get('actor'), action: get('action'), target: get('target'), from: iso('from'), to: iso('to') };
  }, [key]);
  const setFilters = useCallback(
    (patch: Partial<AuditFilters>) => {
      const next = new URLSearchParams(window.location.search);
      for (const [k, v] of Object.entries(patch)) {
        if (v) next.set(k, v);
        else next.delete(k);
      }
      const qs = next.toString();
      router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
    },
    [router, pathname],
  );
  const clear = useCallback(() => setFilters(Object.fromEntries(FILTER_KEYS.map((k) => [k, ''])) as Partial<AuditFilters>), [setFilters]);
  const active = FILTER_KEYS.filter((k) => filters[k]).length;
  return { filters, setFilters, clear, active };
}
