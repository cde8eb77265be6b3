import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CohortConfig } from '../config/index.js';
import { findBwrap, findPython, runCode, type CodeSandbox } from '../sandbox/index.js';
import { analysisNode } from './analysis-node.js';
import { enhanceContextWithReferences } from './enhance-context-with-references.js';
import {
  chunk,
  doc,
  fakeRetriever,
  scriptedResearchModel,
  testContext,
  testSettings,
  testState,
} from '../test/research-fakes.js';
import { numberSources } from './format-context.js';
import { retrieveNode } from './retrieve-node.js';
import { routeSourceNecessity } from './route-source-necessity.js';
import { createVisitedRegistry } from './visited-registry.js';
import { webSearchNode } from './web-search-node.js';

const BALANCE =
  'Humanoid robots keep their balance by keeping the zero moment point inside the support polygon. ' +
  'Ankle, hip and stepping strategies recover balance after a push. ' +
  'Whole-body controllers compute joint torques that hold the centre of mass above the feet.';

const json = (value: unknown) => JSON.stringify(value);

describe('retrieveNode', () => {
  it('keeps relevant passages no subagent has visited and marks them visited', async () => {
    const registry = createVisitedRegistry([{ identifier: 'balance-2', sourceType: 'internal' }]);
    const retriever = fakeRetriever(() => [
      chunk('balance-1', BALANCE),
      chunk('balance-2', 'Already read by another subagent, so it is skipped here.'),
      chunk('balance-3', 'Barely related passage with a low score.', { score: 0.05 }),
    ]);
    const update = await retrieveNode(testState(), testContext({ retriever, registry }));
    expect(update.internalResult?.sources.map((s) => s.identifier)).toEqual(['balance-1']);
    expect(update.visitedSources).toEqual([{ identifier: 'balance-1', sourceType: 'internal' }]);
    expect(registry.has({ identifier: 'balance-1' })).toBe(true);
  });

  it('degrades to an empty result with the reason on a timeout', async () => {
    const retriever = fakeRetriever(() => [chunk('balance-1', BALANCE)], 2000);
    const update = await retrieveNode(
      testState(),
      testContext({ retriever, settings: testSettings({ timeoutRetrieval: 0.05 }) }),
    );
    expect(update.internalResult).toEqual({
      sources: [],
      reason: 'retrieval timed out after 50 ms',
    });
  });

  it('says so when there is no knowledge base', async () => {
    const update = await retrieveNode(testState(), testContext());
    expect(update.internalResult?.reason).toContain('no internal knowledge base');
  });
});

describe('routeSourceNecessity', () => {
  it('goes to analysis when internal content is there', () => {
    const state = testState('q', {
      internalResult: { sources: [doc('balance-1', 'internal', BALANCE)] },
    });
    expect(routeSourceNecessity(state)).toBe('analysisNode');
  });

  it('goes to the web when internal content is missing or too thin', () => {
    expect(
      routeSourceNecessity(testState('q', { internalResult: { sources: [], reason: 'timeout' } })),
    ).toBe('webSearchNode');
    expect(routeSourceNecessity(testState('q'))).toBe('webSearchNode');
    const thin = testState('q', {
      internalResult: { sources: [doc('x', 'internal', 'Too short.')] },
    });
    expect(routeSourceNecessity(thin)).toBe('webSearchNode');
  });
});

describe('webSearchNode', () => {
  it('searches web and papers in parallel, reads the top page, and skips visited URLs', async () => {
    const registry = createVisitedRegistry([
      { identifier: 'https://seen.org/a', sourceType: 'web' },
    ]);
    const scraped: string[] = [];
    const update = await webSearchNode(
      testState(),
      testContext({
        registry,
        webSearch: async () => [
          doc('https://seen.org/a', 'web', 'old'),
          doc('https://new.org/b', 'web', 'snippet'),
        ],
        scrapePage: async (url) => {
          scraped.push(url);
          return `Full text of ${url}`;
        },
        paperSearches: [
          {
            name: 'arxiv',
            search: async () => [doc('http://arxiv.org/abs/1', 'paper', 'abstract')],
          },
        ],
      }),
    );
    expect(update.webResult?.sources).toEqual([
      { ...doc('https://new.org/b', 'web', 'Full text of https://new.org/b') },
    ]);
    expect(scraped).toEqual(['https://new.org/b']);
    expect(update.paperResult?.sources.map((s) => s.identifier)).toEqual([
      'http://arxiv.org/abs/1',
    ]);
    expect(update.visitedSources?.map((s) => s.sourceType)).toEqual(['web', 'paper']);
  });

  it('keeps the other results when one source hits its timeout', async () => {
    const slow = (_q: string, { signal }: { signal: AbortSignal }) =>
      new Promise<never>((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    const update = await webSearchNode(
      testState(),
      testContext({
        settings: testSettings({ timeoutWebSearch: 0.1 }),
        webSearch: async () => [doc('https://fast.org/1', 'web', 'fast answer')],
        paperSearches: [
          { name: 'arxiv', search: slow },
          {
            name: 'semantic_scholar',
            search: async () => [doc('https://s2.org/p', 'paper', 'abstract')],
          },
        ],
      }),
    );
    expect(update.webResult?.sources).toHaveLength(1);
    expect(update.paperResult?.sources.map((s) => s.identifier)).toEqual(['https://s2.org/p']);
    expect(update.paperResult?.reason).toBe('arxiv search timed out after 100 ms');
  });

  it('reports a failing service as a reason, not a crash', async () => {
    const update = await webSearchNode(
      testState(),
      testContext({
        webSearch: async () => {
          throw new Error('HTTP 401');
        },
      }),
    );
    expect(update.webResult).toEqual({ sources: [], reason: 'web search failed: HTTP 401' });
    expect(update.paperResult?.reason).toBe('paper search is not configured');
  });
});

describe('analysisNode', () => {
  const gathered = testState('How do humanoid robots keep their balance?', {
    internalResult: { sources: [doc('balance-1', 'internal', BALANCE)] },
    paperResult: {
      sources: [
        doc(
          'http://arxiv.org/abs/2401.01234',
          'paper',
          'Model predictive control keeps a humanoid balanced under pushes at 500 Hz.',
        ),
      ],
    },
  });

  it('quotes the best sentences with citations when no model is configured', async () => {
    const update = await analysisNode(gathered, testContext());
    const finding = update.subagentFindings?.[0];
    expect(finding).toMatchObject({ mode: 'extractive', status: 'done', taskId: 'task-1' });
    expect(finding?.summary).toContain('zero moment point inside the support polygon. [1]');
    expect(finding?.reasoning).toContain('No analysis model was used');
    expect(finding?.citations.map((c) => c.identifier)).toContain('balance-1');
  });

  it('returns the validated AnalysisOutput as a finding', async () => {
    const model = scriptedResearchModel(() =>
      json({
        summary: 'Balance comes from the ZMP [1] and MPC [2].',
        citations: [{ index: 1 }, { index: 2, claim: 'MPC' }],
        reasoning: 'Both agree.',
      }),
    );
    const context = testContext({ model });
    const finding = (await analysisNode(gathered, context)).subagentFindings?.[0];
    expect(finding).toMatchObject({
      mode: 'model',
      summary: 'Balance comes from the ZMP [1] and MPC [2].',
      reasoning: 'Both agree.',
    });
    expect(finding?.citations.map((c) => [c.index, c.sourceType])).toEqual([
      [1, 'internal'],
      [2, 'paper'],
    ]);
    expect(context.tokens.total).toBe(120);
  });

  it('retries a parse failure with the error appended to the conversation', async () => {
    const prompts: string[] = [];
    const model = scriptedResearchModel((prompt, call) => {
      prompts.push(prompt);
      if (call === 0) return 'not json at all';
      if (call === 1)
        return json({
          summary: 'Cites a missing source [9].',
          citations: [{ index: 9 }],
          reasoning: 'r',
        });
      return json({ summary: 'Fixed [1].', citations: [{ index: 1 }], reasoning: 'r' });
    });
    const finding = (await analysisNode(gathered, testContext({ model }))).subagentFindings?.[0];
    expect(finding?.summary).toBe('Fixed [1].');
    expect(prompts).toHaveLength(3);
    expect(prompts[1]).toContain('not json at all');
    expect(prompts[1]).toContain('could not be used');
    expect(prompts[2]).toContain('sources are numbered 1 to 2');
  });

  it('falls back to a minimal output after the retries, and on timeouts', async () => {
    const broken = scriptedResearchModel(() => '{"summary": ');
    const finding = (await analysisNode(gathered, testContext({ model: broken })))
      .subagentFindings?.[0];
    expect(finding).toMatchObject({ mode: 'extractive', status: 'done' });
    expect(finding?.reasoning).toContain('failed after 3 attempt(s)');
    expect(finding?.summary).toContain('[1]');

    const slow = scriptedResearchModel(() => ({ text: '{}', delayMs: 1000 }));
    const settings = testSettings({ timeoutLlmCall: 0.05, maxRetries: 1 });
    const timedOut = (await analysisNode(gathered, testContext({ model: slow, settings })))
      .subagentFindings?.[0];
    expect(timedOut?.reason).toContain('timed out after 50 ms');
  });

  it('runs returned code in the sandbox and refines once with its output', async () => {
    const prompts: string[] = [];
    const model = scriptedResearchModel((prompt, call) => {
      prompts.push(prompt);
      return call === 0
        ? json({
            summary: 'Control runs fast [2].',
            citations: [{ index: 2 }],
            reasoning: 'r',
            pythonCode: 'print(1000 / 500)',
          })
        : json({
            summary: 'A control step takes 2.0 ms at 500 Hz [2].',
            citations: [{ index: 2 }],
            reasoning: 'computed',
          });
    });
    const ran: string[] = [];
    const sandbox: CodeSandbox = async (code) => {
      ran.push(code);
      return { status: 'ok', stdout: '2.0', stderr: '', durationMs: 1 };
    };
    const finding = (await analysisNode(gathered, testContext({ model, sandbox })))
      .subagentFindings?.[0];
    expect(ran).toEqual(['print(1000 / 500)']);
    expect(prompts[1]).toContain('Output:\n2.0');
    expect(finding).toMatchObject({
      summary: 'A control step takes 2.0 ms at 500 Hz [2].',
      codeOutput: '2.0',
    });
  });

  it.skipIf(!findBwrap(undefined) || !findPython(undefined))(
    'runs python_code from the model inside the sandbox: os.system writes nothing outside, no secret leaks',
    async () => {
      // Outside /tmp (private in the sandbox), so only the read-only mount can stop the write.
      const cache = join(process.cwd(), 'node_modules', '.cache');
      mkdirSync(cache, { recursive: true });
      const outside = mkdtempSync(join(cache, 'cohort-research-outside-'));
      const hostile = [
        'import os',
        `os.system('id > ${outside}/proof')`,
        "print('key:', os.environ.get('OPENAI_API_KEY'))",
      ].join('\n');
      const prompts: string[] = [];
      const model = scriptedResearchModel((prompt, call) => {
        prompts.push(prompt);
        return call === 0
          ? json({
              summary: 'S [1].',
              citations: [{ index: 1 }],
              reasoning: 'r',
              pythonCode: hostile,
            })
          : json({ summary: 'S [1].', citations: [{ index: 1 }], reasoning: 'r' });
      });
      const sandbox: CodeSandbox = (code, options) =>
        runCode(code, {
          ...options,
          settings: CohortConfig.parse({}).sandbox,
          parentEnv: { PATH: process.env.PATH, OPENAI_API_KEY: 'sk-server-secret' },
        });
      await analysisNode(gathered, testContext({ model, sandbox }));
      expect(prompts[1]).toContain('key: None');
      expect(prompts[1]).not.toContain('sk-server-secret');
      expect(existsSync(join(outside, 'proof'))).toBe(false);
      rmSync(outside, { recursive: true, force: true });
    },
  );

  it('without python3, tells the model code execution is unavailable and goes on', async () => {
    const noPython = mkdtempSync(join(tmpdir(), 'cohort-no-python-'));
    const prompts: string[] = [];
    const model = scriptedResearchModel((prompt, call) => {
      prompts.push(prompt);
      return call === 0
        ? json({ summary: 'S [1].', citations: [{ index: 1 }], reasoning: 'r', pythonCode: '1+1' })
        : json({ summary: 'Without code, S [1].', citations: [{ index: 1 }], reasoning: 'r' });
    });
    const sandbox: CodeSandbox = (code, options) =>
      runCode(code, {
        ...options,
        settings: CohortConfig.parse({}).sandbox,
        parentEnv: { PATH: noPython },
        pythonDirs: [],
      });
    const finding = (await analysisNode(gathered, testContext({ model, sandbox })))
      .subagentFindings?.[0];
    rmSync(noPython, { recursive: true, force: true });
    expect(prompts[1]).toContain('Your code ran (error)');
    expect(prompts[1]).toContain('no python3 was found');
    expect(finding).toMatchObject({ mode: 'model', summary: 'Without code, S [1].' });
    expect(finding?.codeOutput).toMatch(/^error: Code execution is unavailable: no python3/);
  });

  it('skips analysis when nothing was found, giving the reasons', async () => {
    const empty = testState('q', {
      internalResult: { sources: [], reason: 'retrieval timed out after 30 s' },
      webResult: { sources: [], reason: 'web search failed' },
    });
    const finding = (await analysisNode(empty, testContext())).subagentFindings?.[0];
    expect(finding).toMatchObject({
      summary: 'No sources were found for this task.',
      citations: [],
    });
    expect(finding?.reason).toBe('retrieval timed out after 30 s; web search failed');
  });
});

describe('enhanceContextWithReferences', () => {
  it('adds the References section of each internal document used', async () => {
    const retriever = fakeRetriever(() => [
      chunk('balance-9', 'References\n[1] Vukobratović, M. Zero-moment point. 2004.', {
        source: 'book/balance.md',
        section: 'References',
      }),
      chunk('other-1', 'References\n[1] Unrelated.', {
        source: 'book/other.md',
        section: 'References',
      }),
    ]);
    const sources = numberSources({
      internalResult: {
        sources: [
          { ...doc('balance-1', 'internal', BALANCE), url: 'book/balance.md', title: 'Balance' },
        ],
      },
    });
    const text = await enhanceContextWithReferences(sources, testContext({ retriever }));
    expect(text).toContain('References of Balance (book/balance.md)');
    expect(text).toContain('Vukobratović');
    expect(text).not.toContain('Unrelated');
  });
});
