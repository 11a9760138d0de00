/** A list's sort as the URL and the sort headers hold it: `field` ascending, `-field` descending. */
export type SortOf<F extends string> = F | `-${F}`;

/** `value` when it names one of `fields` (either direction), else `fallback`. */
export function parseSort<F extends string>(value: string | null, fields: readonly F[], fallback: SortOf<F>): SortOf<F> {
  const v = value ?? '';
  return (fields as readonly string[]).includes(v.replace(/^-/, '')) ? (v as SortOf<F>) : fallback;
}

/**
 * A sorted copy of `items` by the sort's field (`keys` gives each field's value), ties broken by
 * `tiebreak` ascending; descending reverses both, so the order is the same every time.
 */
export function sortRows<T, F extends string>(items: T[], sort: SortOf<F>, keys: Record<F, (item: T) => string | number>, tiebreak: (item: T) => string): T[] {
  const desc = sort.startsWith('-');
  const key = keys[sort.replace(/^-/, '') as F];
  return [...items].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    const s = tiebreak(a);
    const t = tiebreak(b);
    const c = x < y ? -1 : x > y ? 1 : s < t ? -1 : s > t ? 1 : 0;
    return desc ? -c : c;
  });
}
