import { describe, expect, it } from 'vitest';
import { capReport, estimateTokens, parseSubagentReport } from './subagent-report.js';
import { parseSubagentFile } from './subagent-file.js';
import { subagentModel } from './subagent-type.js';

describe('parseSubagentReport', () => {
  it('reads bare, fenced and prose-wrapped JSON leniently', () => {
    expect(
      parseSubagentReport(
        '{"summary":"s","findings":["a"],"sources":["https://x.dev"],"files":["a.ts"]}',
      ),
    ).toEqual({
      summary: 's',
      findings: ['a'],
      sources: ['https://x.dev'],
      files: ['a.ts'],
    });
    expect(
      parseSubagentReport('Here you go:\n```json\n{"answer":"found","files":"src/a.ts"}\n```'),
    ).toEqual({
      summary: 'found',
      findings: [],
      sources: [],
      files: ['src/a.ts'],
    });
    expect(
      parseSubagentReport('Done. {"summary": "x", "findings": [{"file": "a.ts"}]} bye').findings,
    ).toEqual(['{"file":"a.ts"}']);
  });

  it('falls back to the text as the summary', () => {
    expect(parseSubagentReport('  No JSON {here  ')).toEqual({
      summary: 'No JSON {here',
      findings: [],
      sources: [],
      files: [],
    });
    expect(parseSubagentReport('{"other": 1}').summary).toBe('{"other": 1}');
  });
});

describe('capReport', () => {
  const long = {
    summary: 'word '.repeat(5000),
    findings: Array.from({ length: 50 }, (_, i) => `finding ${i}`),
    sources: [],
    files: ['a.ts'],
  };
  it('leaves a small report alone', () => {
    expect(capReport({ summary: 'ok', findings: [], sources: [], files: [] }, 100)).toEqual({
      value: { summary: 'ok', findings: [], sources: [], files: [] },
      truncated: false,
    });
  });
  it('cuts a large report to the token cap', () => {
    for (const cap of [50, 300, 2000]) {
      const { value, truncated } = capReport(long, cap);
      expect(truncated).toBe(true);
      expect(estimateTokens(JSON.stringify(value))).toBeLessThanOrEqual(cap);
    }
  });
});

describe('subagent files', () => {
  it('keeps Claude tool rules as written (enforced as rules), maps model aliases, keeps unknown keys', () => {
    const type = parseSubagentFile(
      '---\nname: tester\ndescription: Runs tests.\ntools: [Bash, "Read", WebFetch]\ndisallowedTools: Write, Edit\nmodel: sonnet\nmaxTurns: 4\nskills: refactor\nhooks: {}\n---\nRun the tests.\n',
      'tester.md',
    );
    expect(type).toMatchObject({
      tools: ['Bash', 'Read', 'WebFetch'],
      disallowedTools: ['Write', 'Edit'],
      model: 'sonnet',
      maxTurns: 4,
      skills: ['refactor'],
      extra: { hooks: {} },
      systemPrompt: 'Run the tests.',
    });
    expect(subagentModel(type.model, 'gpt-4o')).toBe('full');
    expect(subagentModel('inherit', 'gpt-4o')).toBe('gpt-4o');
    expect(subagentModel('llama3.1:8b', 'full')).toBe('llama3.1:8b');
  });

  it('absent tools inherit all; bad fields are errors naming file and field', () => {
    expect(
      parseSubagentFile('---\nname: any\ndescription: d\n---\nbody', 'any.md').tools,
    ).toBeUndefined();
    expect(() =>
      parseSubagentFile('---\nname: Bad Name\ndescription: d\n---\nbody', 'bad.md'),
    ).toThrow(/bad.md: name/);
    expect(() => parseSubagentFile('---\nname: ok\n---\nbody', 'nodesc.md')).toThrow(
      /nodesc.md: description/,
    );
    expect(() => parseSubagentFile('---\nname: ok\ndescription: d\n---\n', 'empty.md')).toThrow(
      /systemPrompt/,
    );
    expect(() =>
      parseSubagentFile('---\nname: ok\ndescription: d\ntools: 3\n---\nx', 'tools.md'),
    ).toThrow(/tools/);
  });
});
