import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from './store.js';

describe('build cache', () => {
  it('keeps nothing for memory://, which no later process can open', async () => {
    const store = await openStore({ dataDir: 'memory://' });
    try {
      expect(store.cache.saves).toBe(false);
      await store.cache.put('lexical-index', 'k', new Uint8Array([1, 2, 3]));
      expect(await store.cache.get('lexical-index', 'k')).toBeUndefined();
      const { rows } = await store.db.query('SELECT name FROM build_cache');
      expect(rows).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('saves and reads back in a data folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cohort-build-cache-'));
    const store = await openStore({ dataDir: join(dir, 'store') });
    try {
      expect(store.cache.saves).toBe(true);
      await store.cache.put('lexical-index', 'k', new Uint8Array([1, 2, 3]));
      expect(await store.cache.get('lexical-index', 'k')).toEqual(new Uint8Array([1, 2, 3]));
      expect(await store.cache.get('lexical-index', 'other')).toBeUndefined();
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
