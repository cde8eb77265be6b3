import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, openPgliteDb, type Store } from '../store/index.js';
import { createTestAssistant, testWebAssets } from '../test/test-assistant.js';
import { startServer, type RunningServer } from './start-server.js';

let store: Store;
let running: RunningServer;

beforeAll(async () => {
  store = await createStore(await openPgliteDb('memory://'));
  running = await startServer(
    { assistant: createTestAssistant(store), store, modeDescription: 'extractive (test)' },
    {
      server: { port: 0, host: '127.0.0.1' },
      webAssets: testWebAssets,
      handleSignals: false,
      requestTimeoutMs: 1_000,
      close: () => store.close(),
    },
  );
});
afterAll(() => running.close());

/** Sends `head` on a raw socket, then nothing; resolves with what the server wrote and when. */
function stall(head: string): Promise<{ reply: string; afterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(running.port, '127.0.0.1', () => socket.write(head));
    let reply = '';
    socket.on('data', (data) => (reply += data.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve({ reply, afterMs: Date.now() - started }));
  });
}

describe('a client that stalls mid-request', () => {
  it('gets 408 and a closed connection once the request timeout passes (body sent in part)', async () => {
    const { reply, afterMs } = await stall(
      `POST /chat HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query": "What is`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 408/);
    expect(afterMs).toBeLessThan(5_000);
    expect(running.openRequests()).toBe(0);
  }, 15_000);

  it('gets 408 when the headers never end', async () => {
    const { reply, afterMs } = await stall('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expect(reply).toMatch(/^HTTP\/1\.1 408/);
    expect(afterMs).toBeLessThan(5_000);
  }, 15_000);

  it('still serves a normal request on the same server', async () => {
    const res = await fetch(`${running.url}/healthz`);
    expect(res.status).toBe(200);
  });
});
