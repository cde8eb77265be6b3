import type { LookupFunction } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAllowListProxy, type AllowListProxy } from './network-proxy.js';

// What a sandboxed command sends the allow-list proxy is hostile, and the proxy runs in cohort's
// own process: `CONNECT localhost:99999` made net.connect throw inside a promise callback, an
// unhandled rejection that ended the whole process (cohort serve, every other request with it).

const toLocalhost = ((_host, _options, callback) =>
  (callback as (error: null, address: string, family: number) => void)(
    null,
    '127.0.0.1',
    4,
  )) as LookupFunction;

/** Sends `request` on the proxy's socket; resolves with what it answered before closing. */
function exchange(proxy: AllowListProxy, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxy.socketPath, () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

let proxy: AllowListProxy;
beforeAll(async () => {
  proxy = await startAllowListProxy(['localhost'], { lookup: toLocalhost });
});
afterAll(() => proxy.close());

describe('allow-list proxy', () => {
  it('answers a CONNECT to an allowed host on a port that does not exist with 400', async () => {
    for (const target of ['localhost:99999', 'localhost:65536', 'localhost:0', 'localhost:']) {
      const answer = await exchange(proxy, `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
      expect(answer, target).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(answer, target).toContain('is not a port from 1 to 65535');
    }
  });
});
