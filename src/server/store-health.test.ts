import { describe, expect, it } from 'vitest';
import { storeHealth } from './store-health.js';

/** A store ping that answers `up` and counts its calls, on a clock the test moves. */
function fakeStore() {
  const state = { up: true, pings: 0, clock: 0 };
  const ping = async () => {
    state.pings++;
    if (!state.up) throw new Error('connection refused');
    return true;
  };
  return { state, ping, now: () => state.clock };
}

describe('storeHealth', () => {
  it('pings once for the first probes, then answers from memory without a promise', async () => {
    const { state, ping, now } = fakeStore();
    const health = storeHealth(ping, { refreshMs: 1000, now });
    expect(await Promise.all([health.probe(), health.probe(), health.probe()])).toEqual([
      true,
      true,
      true,
    ]);
    expect(state.pings).toBe(1);
    state.clock = 999;
    for (let i = 0; i < 100; i++) expect(health.probe()).toBe(true);
    expect(state.pings).toBe(1);
  });

  it('renews a good answer in the background once it is older than the refresh interval', async () => {
    const { state, ping, now } = fakeStore();
    const health = storeHealth(ping, { refreshMs: 1000, now });
    await health.probe();
    state.up = false;
    state.clock = 1000;
    // The stale answer is served at once while one ping checks again.
    expect(health.probe()).toBe(true);
    expect(health.probe()).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(state.pings).toBe(2);
    expect(await health.probe()).toBe(false);
  });

  it('flips to unreachable on the first failure a request meets, and back on the first probe after', async () => {
    const { state, ping, now } = fakeStore();
    const health = storeHealth(ping, { refreshMs: 60_000, now });
    expect(await health.probe()).toBe(true);
    state.up = false;
    // A request failed: the error handler checks the store through the health record.
    expect(await health.ping()).toBe(false);
    // Long before the refresh interval, the next probe already says so.
    expect(await health.probe()).toBe(false);
    expect(await health.probe()).toBe(false);
    state.up = true;
    expect(await health.probe()).toBe(true);
    expect(health.probe()).toBe(true);
  });
});
