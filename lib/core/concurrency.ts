/** Runs `fn` over `items` with at most `limit` calls in flight; results keep the input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  }
  const workers = Array.from({ length: Math.min(Math.max(1, limit), items.length) }, () => worker());
  await Promise.all(workers);
  return results;
}

/**
 * Fetches `items` ahead of their use while earlier ones are consumed, so fetching and consuming
 * overlap instead of taking turns. At most `ahead` items are fetched or being fetched beyond those
 * the consumers hold (memory stays bounded by `ahead + consumers` results); `consume` runs over the
 * results in item order of start, at most `consumers` at a time. `fetch` should not reject (answer a
 * failure as a value): a rejection reaches the consumer of that item as a throw.
 */
export async function pipelined<T, F>(
  items: readonly T[],
  o: { ahead: number; consumers: number },
  fetch: (item: T, index: number) => Promise<F>,
  consume: (fetched: F, item: T, index: number) => Promise<void>,
): Promise<void> {
  const ahead = Math.max(1, o.ahead);
  const started = new Map<number, Promise<F>>();
  let fetchNext = 0;
  let useNext = 0;
  const startMore = () => {
    while (fetchNext < items.length && fetchNext - useNext < ahead) {
      const i = fetchNext++;
      const p = fetch(items[i] as T, i);
      p.catch(() => undefined);
      started.set(i, p);
    }
  };
  async function consumer(): Promise<void> {
    while (useNext < items.length) {
      const i = useNext++;
      startMore();
      const p = started.get(i) as Promise<F>;
      started.delete(i);
      await consume(await p, items[i] as T, i);
    }
  }
  startMore();
  await Promise.all(Array.from({ length: Math.min(Math.max(1, o.consumers), items.length) }, () => consumer()));
}
