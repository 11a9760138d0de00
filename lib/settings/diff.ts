/** The fields a patch really changed, as before/after objects for the audit record. */
export function changedFields<T extends object>(
  keys: readonly string[],
  before: T,
  after: T,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const get = (s: T, k: string) => (s as Record<string, unknown>)[k];
  const changed = keys.filter((k) => JSON.stringify(get(before, k)) !== JSON.stringify(get(after, k)));
  return { before: Object.fromEntries(changed.map((k) => [k, get(before, k)])), after: Object.fromEntries(changed.map((k) => [k, get(after, k)])) };
}
