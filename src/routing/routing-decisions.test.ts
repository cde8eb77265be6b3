import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Router } from './router.js';
import { sampleBookRouter } from '../test/sample-book-router.js';

// Routing's speed work must not change a single decision. This test routes about 1,200 varied
// questions over the sample book and compares every whole result (agents, phase, confidence,
// reason, scores, intent, off-topic subject) with the decisions recorded in
// routing-decisions.snapshot.json. When routing changes on purpose, record them again:
//   COHORT_RECORD_ROUTING=1 npx vitest run src/routing/routing-decisions.test.ts
// and say in the commit why the decisions changed.

const ROOT = resolve(import.meta.dirname, '../..');
const SNAPSHOT = resolve(import.meta.dirname, 'routing-decisions.snapshot.json');

// Tuning lines only (never a held-out half or a fresh set): routing, answer and coding questions.
const SOURCES: Array<[file: string, field: 'query' | 'task']> = [
  ['eval/routing-blind.jsonl', 'query'],
  ['eval/routing-tune-extra.jsonl', 'query'],
  ['eval/routing-tune-router.jsonl', 'query'],
  ['eval/answers-blind.jsonl', 'query'],
  ['eval/retrieval-paraphrase.jsonl', 'query'],
  ['eval/retrieval-paraphrase-hard.jsonl', 'query'],
  ['eval/retrieval-paraphrase-quarter.jsonl', 'query'],
  ['eval/skills-blind.jsonl', 'task'],
  ['eval/skills-extra.jsonl', 'task'],
  ['eval/skills-tune-extra.jsonl', 'task'],
];

function tuneQuestions(): string[] {
  const questions: string[] = [];
  for (const [file, field] of SOURCES) {
    const path = resolve(ROOT, file);
    if (!existsSync(path)) continue;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const row = JSON.parse(line) as Record<string, unknown>;
      if (row.split !== undefined && row.split !== 'tune') continue;
      const text = row[field];
      if (typeof text === 'string') questions.push(text);
    }
  }
  return questions;
}

/**
 * The questions plus variants that reach other paths: lowercase without punctuation, context
 * before the ask, two questions joined into a multi-part one, and letters swapped (typos).
 */
function variedQuestions(): string[] {
  const base = tuneQuestions();
  const varied = [...base];
  base.forEach((question, i) => {
    if (i % 3 === 0) varied.push(question.toLowerCase().replace(/[?.!,]/g, ''));
    if (i % 4 === 1) varied.push(`Sorry if this is basic. ${question}`);
    if (i % 5 === 2) {
      const next = base[(i + 7) % base.length] ?? '';
      varied.push(
        `${question.replace(/[?.!]+$/, '')}, and ${next.charAt(0).toLowerCase()}${next.slice(1)}`,
      );
    }
    if (i % 6 === 3) varied.push(question.replace(/([a-z])([a-z])([a-z]{3,})/, '$2$1$3'));
  });
  return [...new Set(varied)];
}

const fingerprint = (value: unknown): string =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

let router: Router;
beforeAll(async () => {
  router = await sampleBookRouter();
}, 120_000);

describe('routing decisions match the recorded ones', () => {
  it('routes every varied question exactly as recorded', () => {
    const questions = variedQuestions();
    expect(questions.length).toBeGreaterThan(1000);
    const decisions: Record<string, string> = {};
    for (const question of questions) {
      const result = router.route(question);
      // Readable where it matters, and a fingerprint of the whole result (reason, scores, …).
      decisions[question] =
        `${result.primaryAgent}${result.secondaryAgents.map((agent) => `+${agent}`).join('')} ` +
        `${result.phase} ${result.confidence} ${fingerprint(result)}`;
    }
    if (process.env.COHORT_RECORD_ROUTING === '1') {
      writeFileSync(SNAPSHOT, `${JSON.stringify(decisions, null, 2)}\n`);
      return;
    }
    const recorded = JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as Record<string, string>;
    const changed = questions.filter((question) => recorded[question] !== decisions[question]);
    expect(
      changed.slice(0, 10).map((question) => ({
        question,
        recorded: recorded[question],
        now: decisions[question],
      })),
    ).toEqual([]);
    expect(Object.keys(recorded).length).toBe(questions.length);
  }, 120_000);
});
