/**
 * Runs `fn` over `items` with at most `limit` running at once, keeping the input order in the
 * result. A rejected call rejects the whole map (callers that must carry on catch inside `fn`).
 *
 * @example
 * const pages = await mapWithConcurrency(urls, 4, (url) => fetch(url));
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker);
  await Promise.all(workers);
  return results;
}
