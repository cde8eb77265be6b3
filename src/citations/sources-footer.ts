import type { Citation } from '../schema/index.js';
import { citationLocation } from './format-citations.js';

/** Where a Sources footer begins (an optional `---` rule, then `**Sources:**`). */
const FOOTER_START = /\n*(?:-{3,}\s*\n)?\*\*Sources:\*\*\s*\n?/;

/**
 * The Sources footer of rag spec §3: a rule, a bold heading, one line per citation with its URL
 * (when `sourceUrl` is configured) or its source path and section, and its score.
 *
 * @example
 * answer + formatSourcesFooter(citations)
 */
export function formatSourcesFooter(citations: readonly Citation[]): string {
  if (citations.length === 0) return '';
  const lines = citations.map(
    (c) => `[${c.index}] ${citationLocation(c)} (score: ${c.relevanceScore.toFixed(2)})`,
  );
  return `\n\n---\n**Sources:**\n${lines.join('\n')}`;
}

/** Whether a text already carries a Sources footer. */
export function hasSourcesFooter(text: string): boolean {
  return FOOTER_START.test(text);
}

/**
 * Splits an answer into its body and its Sources footer lines. The footer ends at the first blank
 * line: anything after it (the extractive notice) belongs to the body.
 *
 * @example
 * splitSourcesFooter('A topic [1].\n\n---\n**Sources:**\n[1] a.md'); // { body: 'A topic [1].', sources: ['[1] a.md'] }
 */
export function splitSourcesFooter(answer: string): { body: string; sources: string[] } {
  const match = FOOTER_START.exec(answer);
  if (!match) return { body: answer, sources: [] };
  const tail = answer.slice(match.index + match[0].length);
  const [footer = '', ...after] = tail.split(/\n\s*\n/);
  const body = [answer.slice(0, match.index), ...after].join('\n\n').trim();
  return {
    body,
    sources: footer
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
  };
}
