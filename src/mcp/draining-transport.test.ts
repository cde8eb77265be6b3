import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { DrainingTransport } from './draining-transport.js';

/** A transport whose sends finish a turn later, as a pipe's do when it is full. */
function slowTransport(): Transport & { sent: JSONRPCMessage[] } {
  const sent: JSONRPCMessage[] = [];
  return {
    sent,
    start: () => Promise.resolve(),
    close: () => Promise.resolve(),
    send: (message) => {
      sent.push(message);
      return new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe('DrainingTransport.refuse', () => {
  it('sends one answer a request: none for a call its handler answered meanwhile', async () => {
    // Found by review: refuse sent an error for every id it was given, one after the other; a
    // handler finishing while an earlier error was being written sent its answer, and then the
    // error for its id went out too: two responses to one request.
    const inner = slowTransport();
    const transport = new DrainingTransport(inner);
    await transport.start();
    for (const id of [1, 2])
      inner.onmessage?.({ jsonrpc: '2.0', id, method: 'tools/call', params: {} });
    const refusing = transport.refuse([1, 2], 'closing');
    await transport.send({ jsonrpc: '2.0', id: 2, result: { content: [] } });
    await refusing;
    // A handler finishing after its call was refused sends nothing more.
    await transport.send({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    const answers = (id: number) =>
      inner.sent.filter((message) => 'id' in message && message.id === id);
    expect(answers(1)).toHaveLength(1);
    expect(answers(1)[0]).toHaveProperty('error');
    expect(answers(2)).toHaveLength(1);
    expect(answers(2)[0]).toHaveProperty('result');
  });
});
