import { describe, expect, it } from 'vitest';
import { singleFlight } from './single-flight.js';

describe('singleFlight', () => {
  it('shares one run among calls made while it runs, and runs afresh after', async () => {
    let runs = 0;
    let finish!: (value: number) => void;
    const shared = singleFlight(() => {
      runs += 1;
      return new Promise<number>((resolve) => (finish = resolve));
    });
    const first = shared();
    const second = shared();
    finish(7);
    expect(await Promise.all([first, second])).toEqual([7, 7]);
    expect(runs).toBe(1);
    const third = shared();
    finish(8);
    expect(await third).toBe(8);
    expect(runs).toBe(2);
  });

  it('hands a failure to every waiting caller and does not keep it', async () => {
    let fail = true;
    const shared = singleFlight(async () => {
      if (fail) throw new Error('down');
      return 'up';
    });
    const results = await Promise.allSettled([shared(), shared()]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await shared()).toBe('up');
  });
});
