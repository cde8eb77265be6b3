import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAllowListProxy, type AllowListProxy } from '../sandbox/index.js';
import { createGuardedLookup } from './network-guard.js';
import { startFixtureServer, type FixtureServer } from '../test/fixture-server.js';

// The sandbox's allow-list proxy checks host names; an allowed name whose DNS answer is a private
// address (DNS rebinding) must not be reached. A scripted resolver plays the rebinding DNS server.
const rebound = createGuardedLookup({
  resolve: async () => ['127.0.0.1'],
  setting: 'sandbox.allowPrivateAddresses',
});

/** One raw exchange with the proxy over its Unix socket; resolves with everything it answered. */
function exchange(proxy: AllowListProxy, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxy.socketPath);
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
      // A tunnel that opened stays open: ask the far side something, then hang up.
      if (
        answer.startsWith('HTTP/1.1 200 Connection Established') &&
        !answer.includes('loopback')
      ) {
        socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      }
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(request);
  });
}

let server: FixtureServer;
let port = 0;
beforeAll(async () => {
  server = await startFixtureServer(() => ({ body: 'loopback answer' }));
  port = Number(new URL(server.url).port);
});
afterAll(() => server.close());

describe('the allow-list proxy against DNS rebinding', () => {
  it('refuses an allowed host whose address is private, for CONNECT and plain requests', async () => {
    const proxy = await startAllowListProxy(['mirror.example.org'], { lookup: rebound });
    try {
      const tunnel = await exchange(
        proxy,
        `CONNECT mirror.example.org:${port} HTTP/1.1\r\nHost: mirror.example.org:${port}\r\n\r\n`,
      );
      expect(tunnel).toMatch(/^HTTP\/1\.1 403/);
      expect(tunnel).toContain('private or loopback address (127.0.0.1)');
      expect(tunnel).toContain('sandbox.allowPrivateAddresses');
      expect(tunnel).not.toContain('loopback answer');
      const plain = await exchange(
        proxy,
        `GET http://mirror.example.org:${port}/ HTTP/1.1\r\nHost: mirror.example.org:${port}\r\nConnection: close\r\n\r\n`,
      );
      expect(plain).toMatch(/^HTTP\/1\.1 403/);
      expect(plain).toContain('private or loopback address (127.0.0.1)');
      expect(plain).not.toContain('loopback answer');
    } finally {
      await proxy.close();
    }
  });

  it('refuses an allowed private IP literal too, and names a host not on the list', async () => {
    const proxy = await startAllowListProxy(['127.0.0.1'], { lookup: createGuardedLookup() });
    try {
      const literal = await exchange(
        proxy,
        `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
      );
      expect(literal).toMatch(/^HTTP\/1\.1 403/);
      expect(literal).not.toContain('loopback answer');
      const other = await exchange(proxy, `CONNECT evil.example:443 HTTP/1.1\r\n\r\n`);
      expect(other).toContain('evil.example is not in sandbox.allowedHosts');
    } finally {
      await proxy.close();
    }
  });

  it('reaches the same private server when private addresses are allowed (the control)', async () => {
    const proxy = await startAllowListProxy(['mirror.example.org'], {
      lookup: (_host, _options, callback) => callback(null, '127.0.0.1', 4),
    });
    try {
      const tunnel = await exchange(
        proxy,
        `CONNECT mirror.example.org:${port} HTTP/1.1\r\nHost: mirror.example.org:${port}\r\n\r\n`,
      );
      expect(tunnel).toContain('loopback answer');
      const plain = await exchange(
        proxy,
        `GET http://mirror.example.org:${port}/ HTTP/1.1\r\nHost: mirror.example.org:${port}\r\nConnection: close\r\n\r\n`,
      );
      expect(plain).toContain('loopback answer');
    } finally {
      await proxy.close();
    }
  });
});
