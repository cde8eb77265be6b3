import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createResearchDependencies } from '../research/index.js';
import { MAX_RESEARCH_TASKS } from '../schema/index.js';
import { loadConfig } from './index.js';

// The specs' own variables and switches, read the way the specs say.
describe('configuration from the specs', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'cohort-spec-vars-'));

  it('honours OPENAI_MODEL (rag-agent-research.md §5); COHORT_MODEL wins when both are set', () => {
    expect(loadConfig({ env: { OPENAI_MODEL: 'llama3.1' }, cwd }).model.name).toBe('llama3.1');
    expect(
      loadConfig({ env: { OPENAI_MODEL: 'llama3.1', COHORT_MODEL: 'qwen2.5' }, cwd }).model.name,
    ).toBe('qwen2.5');
  });

  it('turns Semantic Scholar on only with USE_SEMANTIC_SCHOLAR=true and a key (research-subagent.md)', () => {
    const papers = (env: Record<string, string>) =>
      (createResearchDependencies(loadConfig({ env, cwd })).paperSearches ?? []).map((s) => s.name);
    expect(papers({ SEMANTIC_SCHOLAR_API_KEY: 'k' })).toEqual(['arxiv']);
    expect(papers({ USE_SEMANTIC_SCHOLAR: 'true' })).toEqual(['arxiv']);
    expect(papers({ USE_SEMANTIC_SCHOLAR: 'true', SEMANTIC_SCHOLAR_API_KEY: 'k' })).toEqual([
      'arxiv',
      'semantic_scholar',
    ]);
    expect(() => loadConfig({ env: { USE_SEMANTIC_SCHOLAR: 'maybe' }, cwd })).toThrow(
      /USE_SEMANTIC_SCHOLAR/,
    );
  });

  it('switches the multi-domain mode from the environment, sequential by default', () => {
    expect(loadConfig({ env: {}, cwd }).routing.multiDomain).toBe('sequential');
    expect(loadConfig({ env: { COHORT_MULTI_DOMAIN: 'parallel' }, cwd }).routing.multiDomain).toBe(
      'parallel',
    );
    expect(() => loadConfig({ env: { COHORT_MULTI_DOMAIN: 'both' }, cwd })).toThrow(
      /routing\.multiDomain/,
    );
  });

  it('caps research.maxTasks at the limit every surface shares', () => {
    expect(() =>
      loadConfig({ env: {}, cwd, overrides: { research: { maxTasks: MAX_RESEARCH_TASKS + 1 } } }),
    ).toThrow(/research\.maxTasks/);
  });
});
