import { describe, expect, it } from 'vitest';
import { isCohortError } from '../../errors/index.js';
import type { CliIo } from '../command.js';
import { serveCommand } from './serve.js';

function captureIo(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    env: { COHORT_DATA_DIR: 'memory://' },
    cwd: process.cwd(),
    isTTY: false,
  };
}

describe('cohort serve', () => {
  it('serves the book over HTTP and stops on SIGTERM', async () => {
    const io = captureIo();
    const exit = serveCommand.run(['--port', '0', '--host', '127.0.0.1'], io);
    let url: string | undefined;
    while (!url) {
      url = /serving the book assistant on (\S+)/.exec(io.out.join(''))?.[1];
      if (!url) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const health = (await (await fetch(`${url}/healthz`)).json()) as {
      status: string;
      mode: string;
    };
    expect(health).toMatchObject({ status: 'ok', mode: 'extractive' });
    const reply = await fetch(`${url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'What is a ROS 2 topic?' }),
    });
    expect(reply.status).toBe(200);
    const body = (await reply.json()) as { agent_used: string; citations: unknown[] };
    expect(body.citations.length).toBeGreaterThan(0);
    process.emit('SIGTERM', 'SIGTERM');
    expect(await exit).toBe(0);
    expect(io.out.join('')).toContain('Stopped.');
  }, 120_000);

  it('rejects a bad port before opening anything', async () => {
    await expect(serveCommand.run(['--port', 'http'], captureIo())).rejects.toSatisfy(
      (error: unknown) => isCohortError(error, 'invalid_input') && error.message.includes('--port'),
    );
  });
});
