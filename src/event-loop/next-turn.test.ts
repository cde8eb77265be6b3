import { describe, expect, it } from 'vitest';
import { nextTurn } from './next-turn.js';

describe('nextTurn', () => {
  it('goes on after the callbacks the loop already holds, where a resolved promise does not', async () => {
    const heard: string[] = [];
    setImmediate(() => heard.push('queued callback'));
    await Promise.resolve();
    heard.push('after a resolved promise');
    await nextTurn();
    heard.push('after a turn');
    expect(heard).toEqual(['after a resolved promise', 'queued callback', 'after a turn']);
  });
});
