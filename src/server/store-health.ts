import { singleFlight } from './single-flight.js';

/** How long a good store ping is trusted before a probe asks again (in the background). */
export const HEALTH_REFRESH_MS = 1000;

/** Options of {@link storeHealth}. */
export interface StoreHealthOptions {
  /** Milliseconds a reachable answer is served from memory (default {@link HEALTH_REFRESH_MS}). */
  refreshMs?: number;
  /** Clock in milliseconds, for tests (default `Date.now`). */
  now?: () => number;
}

/** The store's reachability as `GET /healthz` reports it. */
export interface StoreHealth {
  /**
   * Whether the store is reachable, for a probe. While the last answer was "reachable" it is
   * returned at once (not a promise), and once older than `refreshMs` a ping runs in the
   * background to renew it. Unknown or unreachable, the probe waits for a ping (shared with
   * concurrent probes), so a store that is down is reported as down, and one that came back as
   * up, on the first probe.
   */
  probe(): boolean | Promise<boolean>;
  /**
   * Pings the store and remembers the answer. The error handler checks the store through here
   * when a request fails, so the first failure a request meets turns the next probe to 503.
   */
  ping(): Promise<boolean>;
}

/**
 * Keeps the store's health in memory, so a load balancer probing `/healthz` hundreds of times a
 * second costs one store query per `refreshMs` instead of one per probe, and a probe answers
 * without waiting on the store. A request that fails because the store is down flips it to
 * unreachable at once (see {@link StoreHealth.ping}).
 *
 * @example
 * const health = storeHealth(() => store.ping());
 * app.get('/healthz', async (c) => c.json({}, (await health.probe()) ? 200 : 503));
 * app.onError(errorHandler({ ping: health.ping }));
 */
export function storeHealth(
  ping: () => Promise<boolean>,
  options: StoreHealthOptions = {},
): StoreHealth {
  const refreshMs = options.refreshMs ?? HEALTH_REFRESH_MS;
  const now = options.now ?? Date.now;
  let reachable: boolean | undefined;
  let checkedAt = Number.NEGATIVE_INFINITY;
  const check = singleFlight(async () => {
    reachable = await ping().catch(() => false);
    checkedAt = now();
    return reachable;
  });
  return {
    probe() {
      if (reachable !== true) return check();
      if (now() - checkedAt >= refreshMs) void check();
      return true;
    },
    ping: check,
  };
}
