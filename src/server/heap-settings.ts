import { nodeV8 } from '../builtins/index.js';
/**
 * V8 settings for the process `cohort serve` runs in: after each full collection, the old
 * generation may grow by a quarter of what was live before the next one, instead of by V8's own
 * factor (up to four times what was live, for a heap as small as a server's).
 *
 * A server's live heap is small (about 31 MB on the sample book) and its garbage is mostly what
 * requests in flight and traces waiting to be written leave behind: it outlives a young-generation
 * collection or two and is promoted, then waits in the old generation for a full collection. With
 * V8's factor that wait lasted until the old generation held about twice the live heap, and the
 * peak grew with the number of `/chat` requests served (heap used after 6,000 `/chat` on a folder:
 * 58–91 MB before a full collection, 31 after). With this setting it stays near the live heap and
 * the peak stops growing (see docs/http-api.md#memory for the figures).
 *
 * V8's settings belong to the process: `cohort serve` sets this for itself; a server started with
 * `startServer` in another program is left to that program's settings.
 */
export const SERVER_HEAP_V8_FLAGS: readonly string[] = ['--heap-growing-percent=25'];

/**
 * Sets {@link SERVER_HEAP_V8_FLAGS} for this process (`set` is V8's own setter unless a test
 * passes another). V8 reads it at each full collection, so it holds from the next one.
 *
 * @example
 * useServerHeapSettings(); // then start the server
 */
export function useServerHeapSettings(
  set: (flag: string) => void = (flag) => nodeV8().setFlagsFromString(flag),
): void {
  for (const flag of SERVER_HEAP_V8_FLAGS) set(flag);
}
