/**
 * A process-wide counter of changes to what is installed (pip, npm, system, GitHub binaries).
 * Caches that depend on installed programs (skill gating's binary look-ups) compare it instead of
 * trusting a TTL, so a result never outlives an install. Bumped synchronously by the
 * installers before their job ends.
 */
const KEY = Symbol.for('skilldock.packagesGeneration');
const g = globalThis as unknown as Record<symbol, { n: number } | undefined>;
const counter = (g[KEY] ??= { n: 0 });

export const packagesGeneration = (): number => counter.n;
export function bumpPackagesGeneration(): void {
  counter.n += 1;
}
