import { describe, expect, it } from 'vitest';
import type { Message } from '../schema/index.js';
import { SessionCache } from './session-cache.js';

const m = (content: string): Message => ({
  role: 'user',
  content,
  timestamp: new Date(0),
});
const contents = (messages: Message[] | undefined) => messages?.map((message) => message.content);

/** Fills the cache for `id` as a read of the store that returned `messages` would. */
function filled(cache: SessionCache, id: string, messages: Message[]) {
  cache.endRead(cache.beginRead(id), messages);
}

describe('SessionCache', () => {
  it('knows nothing until a read fills it, then serves the last messages as copies', () => {
    const cache = new SessionCache(3);
    expect(cache.get('s', 3)).toBeUndefined();
    filled(cache, 's', [m('a'), m('b'), m('c'), m('d')]);
    expect(contents(cache.get('s', 3))).toEqual(['b', 'c', 'd']);
    expect(contents(cache.get('s', 2))).toEqual(['c', 'd']);
    // More than it keeps: the store has to answer.
    expect(cache.get('s', 4)).toBeUndefined();
    const served = cache.get('s', 1) as Message[];
    (served[0] as Message).content = 'changed';
    (served[0] as Message).timestamp?.setTime(5);
    expect(cache.get('s', 1)).toEqual([m('d')]);
  });

  it('appends finished writes in order and keeps only the last `depth` messages', () => {
    const cache = new SessionCache(3);
    filled(cache, 's', []);
    const first = cache.beginWrite('s');
    const second = cache.beginWrite('s');
    // Served while writes are under way: the state before them.
    expect(contents(cache.get('s', 3))).toEqual([]);
    cache.endWrite(first, [m('q1'), m('a1')]);
    cache.endWrite(second, [m('q2'), m('a2')]);
    expect(contents(cache.get('s', 3))).toEqual(['a1', 'q2', 'a2']);
  });

  it('forgets a session when a write fails, finishes out of order, or deletes', () => {
    const cache = new SessionCache(10);
    filled(cache, 'failed', [m('a')]);
    cache.endWrite(cache.beginWrite('failed'), undefined);
    expect(cache.get('failed', 10)).toBeUndefined();

    filled(cache, 'swapped', [m('a')]);
    const first = cache.beginWrite('swapped');
    const second = cache.beginWrite('swapped');
    cache.endWrite(second, [m('second')]);
    cache.endWrite(first, [m('first')]);
    expect(cache.get('swapped', 10)).toBeUndefined();

    filled(cache, 'deleted', [m('a')]);
    cache.endWrite(cache.beginWrite('deleted'), undefined);
    expect(cache.get('deleted', 10)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('is not filled by a read that a write overlapped, whichever started first', () => {
    const cache = new SessionCache(10);
    // The write started first: the read may not have seen it.
    const write = cache.beginWrite('s');
    const during = cache.beginRead('s');
    cache.endWrite(write, [m('new')]);
    cache.endRead(during, [m('old')]);
    expect(cache.get('s', 10)).toBeUndefined();

    // The read started first and a delete finished before it did.
    const read = cache.beginRead('t');
    cache.endWrite(cache.beginWrite('t'), undefined);
    cache.endRead(read, [m('deleted since')]);
    expect(cache.get('t', 10)).toBeUndefined();

    // A failed read fills nothing, and the next read does.
    cache.endRead(cache.beginRead('u'), undefined);
    expect(cache.get('u', 10)).toBeUndefined();
    filled(cache, 'u', [m('x')]);
    expect(contents(cache.get('u', 10))).toEqual(['x']);
  });

  it('does not follow a write to a session it does not know', () => {
    const cache = new SessionCache(10);
    cache.endWrite(cache.beginWrite('s'), [m('q')]);
    // Only the store knows what came before that write.
    expect(cache.get('s', 10)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps at most `maxSessions` sessions, forgetting the least recently used', () => {
    const cache = new SessionCache(10, 2);
    filled(cache, 'a', [m('a')]);
    filled(cache, 'b', [m('b')]);
    cache.get('a', 10);
    filled(cache, 'c', [m('c')]);
    expect(cache.size).toBe(2);
    expect(cache.get('b', 10)).toBeUndefined();
    expect(contents(cache.get('a', 10))).toEqual(['a']);
    expect(contents(cache.get('c', 10))).toEqual(['c']);
  });
});
