/** Shallow key diff of an audit entry's before/after, for highlighting what a write changed. */

export type Change = 'added' | 'removed' | 'changed' | 'same';
export interface KeyDiff {
  key: string;
  change: Change;
  before: unknown;
  after: unknown;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/**
 * Per top-level key: added, removed, changed or the same. A missing side (null: a create or a
 * delete) counts as an empty object. Returns null when either side is not an object, so the
 * caller shows both values whole.
 */
export function shallowDiff(before: unknown, after: unknown): KeyDiff[] | null {
  const b = before ?? {};
  const a = after ?? {};
  if (!isPlainObject(b) || !isPlainObject(a)) return null;
  const keys = [...Object.keys(b), ...Object.keys(a).filter((k) => !Object.hasOwn(b, k))];
  return keys.map((key) => {
    const inB = Object.hasOwn(b, key);
    const inA = Object.hasOwn(a, key);
    const change: Change = !inB ? 'added' : !inA ? 'removed' : deepEqual(b[key], a[key]) ? 'same' : 'changed';
    return { key, change, before: b[key], after: a[key] };
  });
}

/** JSON for display; `undefined` (a missing key) has no JSON form and is returned as null. */
export function pretty(v: unknown): string | null {
  if (v === undefined) return null;
  return JSON.stringify(v, null, 2) ?? String(v);
}
