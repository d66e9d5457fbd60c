/**
 * Runs `work` on each item with at most `limit` running at once, taking items only as a slot frees:
 * an `AsyncIterable` of 100,000 keys is never held whole, and neither are their results (`work`
 * consumes each one). Rejects with the first error `work` throws, after the running ones settle.
 *
 * @example await forEachBounded(keys, 8, async (key) => fold(await get(key)));
 */
export async function forEachBounded<T>(items: Iterable<T> | AsyncIterable<T>, limit: number, work: (item: T) => Promise<void>): Promise<void> {
  if (!(limit >= 1)) throw new Error(`a pool needs at least one slot, not ${limit}`);
  const iterator = Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : toAsync(items[Symbol.iterator]());
  let failed: { error: unknown } | null = null;
  // Each runner pulls the next item when it is free; the iterator is only ever called by one at a time.
  let pulling: Promise<unknown> = Promise.resolve();
  const next = (): Promise<IteratorResult<T>> => {
    const result = pulling.then(() => iterator.next());
    pulling = result.catch(() => undefined);
    return result;
  };
  const runner = async () => {
    while (!failed) {
      const item = await next();
      if (item.done) return;
      try {
        await work(item.value);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.floor(limit) }, runner));
  if (failed) {
    await iterator.return?.();
    throw (failed as { error: unknown }).error;
  }
}

function toAsync<T>(iterator: Iterator<T>): AsyncIterator<T> {
  return { next: async () => iterator.next() };
}
