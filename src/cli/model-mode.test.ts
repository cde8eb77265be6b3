import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../test/fake-openai-server.js';
import { runCli } from '../test/run-cli.js';

// The whole model path through the real wiring: config → openAssistant → model runner → the AI
// SDK's HTTP client → a local OpenAI-compatible server, with the sample book in an in-memory store.
const run = runCli;

describe('cohort ask with a model endpoint', () => {
  let server: FakeOpenAI | undefined;
  afterEach(() => server?.close());

  it('runs the tool-calling loop over HTTP and checks its citations', async () => {
    server = await startFakeOpenAI({
      chat: [
        {
          kind: 'tool_call',
          name: 'search_book_content',
          arguments: '{"query":"ROS 2 topic","top_k":3}',
          pieces: 5,
        },
        {
          kind: 'text',
          text: 'A topic is a named channel for messages [1]. It is not a service [9].',
          pieces: 6,
          usage: { prompt: 120, completion: 18 },
        },
      ],
    });
    const { code, stdout } = await run(['ask', 'What is a ROS 2 topic?', '--json'], {
      OPENAI_BASE_URL: server.baseUrl,
      COHORT_MODEL: 'scripted',
    });
    expect(code).toBe(0);
    const reply = JSON.parse(stdout) as {
      answer: string;
      mode: string;
      agent_used: string;
      citations: { index: number }[];
      metadata: Record<string, unknown>;
    };
    expect(reply.mode).toBe('model');
    expect(reply.agent_used).toBe('glossary');
    expect(reply.answer).toContain('A topic is a named channel for messages [1].');
    expect(reply.answer).not.toContain('[9]');
    expect(reply.metadata.ungrounded_citations).toEqual([9]);
    expect(reply.answer).toContain('**Sources:**\n[1] ');
    expect(reply.citations.map((c) => c.index)).toEqual([1]);
    expect(reply.metadata.usage).toMatchObject({
      prompt_tokens: expect.any(Number),
      total_tokens: expect.any(Number),
    });
    const first = server.requests[0]?.body as {
      model: string;
      tools: { function: { name: string } }[];
      messages: { role: string; content: string }[];
    };
    expect(first.model).toBe('scripted');
    expect(first.tools.map((t) => t.function.name)).toContain('search_book_content');
    expect(first.messages[0]?.content).toContain(
      'ONLY use information from the search_book_content tool',
    );
  });

  it('says the spec message on stderr and exits 1 when the model service fails', async () => {
    server = await startFakeOpenAI({
      chat: [
        { kind: 'status', status: 500 },
        { kind: 'status', status: 500 },
        { kind: 'status', status: 500 },
      ],
    });
    const { code, stdout, stderr } = await run(['ask', 'What is a ROS 2 topic?'], {
      OPENAI_BASE_URL: server.baseUrl,
    });
    expect(code).toBe(1);
    expect(stderr).toContain("I'm unable to process your question right now. Please try again.");
    expect(stdout).toBe('');
    expect(server.requests.length).toBe(3);
  });

  it('exits 1 with the byte cap named when the model streams a line that never ends', async () => {
    // It ran cohort out of memory (3 GB, then "heap out of memory"): the line was never parsed.
    server = await startFakeOpenAI({ chat: [{ kind: 'endless' }, { kind: 'endless' }] });
    const { code, stdout, stderr } = await run(['ask', 'What is a ROS 2 topic?'], {
      OPENAI_BASE_URL: server.baseUrl,
      COHORT_MODEL_TIMEOUT: '10',
    });
    expect(code).toBe(1);
    expect(stderr).toContain("I'm unable to process your question right now. Please try again.");
    expect(stderr).toContain("The model's response exceeded 8,000,000 bytes in one event");
    expect(stdout).toBe('');
    expect(server.requests.length).toBe(1);
    expect(server.endlessBytes).toBeLessThan(8_000_000 + 16 * 1024 * 1024);
  });

  it('exits 1 and says how to raise the step limit when the model stops at it without an answer', async () => {
    const search = {
      kind: 'tool_call',
      name: 'search_book_content',
      arguments: '{"query":"ROS 2 topic","top_k":3}',
    } as const;
    const env = { OPENAI_BASE_URL: '', COHORT_MODEL: 'scripted', COHORT_MAX_STEPS: '2' };
    server = await startFakeOpenAI({ chat: [search, search, search, search, search, search] });
    env.OPENAI_BASE_URL = server.baseUrl;
    const asked = await run(['ask', 'What is a ROS 2 topic?'], env);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain('Stopped after 2 model steps without a final answer');
    expect(asked.stderr).toContain('Raise model.maxSteps (COHORT_MAX_STEPS)');
    const json = await run(['ask', 'What is a ROS 2 topic?', '--json'], env);
    expect(json.code).toBe(1);
    expect(json.stderr).toContain('Stopped after 2 model steps without a final answer');
    const chat = await run(['chat'], env, ['What is a ROS 2 topic?']);
    expect(chat.code).toBe(1);
    expect(chat.stderr).toContain('Raise model.maxSteps (COHORT_MAX_STEPS)');
    expect(server.requests.length).toBe(6);
  });

  it('reports the model in `cohort agents`', async () => {
    const { stdout } = await run(['agents'], {
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      COHORT_MODEL: 'llama3.1',
    });
    expect(stdout).toMatch(
      /answering: model: OpenAI-compatible server at http:\/\/127\.0\.0\.1:9\/v1 \(full: llama3\.1, fast: llama3\.1\)/,
    );
  });
});
