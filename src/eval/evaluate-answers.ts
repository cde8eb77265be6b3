import type { AnswerMode, ChatResponse, Citation } from '../schema/index.js';
import type { Assistant } from '../assistant/index.js';
import { headingIsGold, parseGold } from './evaluate-retrieval.js';
import type { RetrievalCase } from './retrieval-cases.js';

/** One question's outcome, end to end. */
export interface AnswerCaseResult {
  query: string;
  gold: string[];
  split?: string;
  /** The agent that answered, and the secondary agents that helped. */
  agent: string;
  secondaryAgents: string[];
  /** Every citation of the answer as `path#Section`, in citation order. */
  cited: string[];
  /** Some citation is a gold section. */
  citesGold: boolean;
  /** Citation [1] is a gold section. */
  firstCitationGold: boolean;
  /** The answer cites nothing: the assistant said the book does not cover the question. */
  notInBook: boolean;
}

/** The three figures of an answer evaluation, as shares of `cases`. */
export interface AnswerFigures {
  cases: number;
  citesGold: number;
  firstCitationGold: number;
  notInBook: number;
}

/** Answer quality over a set: overall, per answering agent, per split of the set. */
export interface AnswerReport extends AnswerFigures {
  mode: AnswerMode;
  perAgent: Record<string, AnswerFigures>;
  /** Per `split` of the cases (`tune`, `heldout`), when the set has splits. */
  perSplit: Record<string, AnswerFigures>;
  perQuery: AnswerCaseResult[];
}

/** The heading path a citation points at: its title, then its section's headings. */
function headingsOf(citation: Citation): string[] {
  const below = citation.section ? citation.section.split(' > ') : [];
  return [citation.title, ...below].map((heading) => heading.trim().toLowerCase());
}

/**
 * True when `citation` is the gold `path#Heading`: same file, and the heading is on its heading
 * path (the same rule as retrieval's `isGoldHit`).
 */
export function citationIsGold(citation: Citation, gold: string): boolean {
  const { source, heading } = parseGold(gold);
  return citation.source === source && headingsOf(citation).some((h) => headingIsGold(h, heading));
}

const round = (value: number) => Math.round(value * 1000) / 1000;

function figures(results: readonly AnswerCaseResult[]): AnswerFigures {
  const share = (pick: (r: AnswerCaseResult) => boolean) =>
    round(results.filter(pick).length / Math.max(1, results.length));
  return {
    cases: results.length,
    citesGold: share((r) => r.citesGold),
    firstCitationGold: share((r) => r.firstCitationGold),
    notInBook: share((r) => r.notInBook),
  };
}

function groupFigures(
  results: readonly AnswerCaseResult[],
  key: (result: AnswerCaseResult) => string | undefined,
): Record<string, AnswerFigures> {
  const groups = new Map<string, AnswerCaseResult[]>();
  for (const result of results) {
    const name = key(result);
    if (name === undefined) continue;
    groups.set(name, [...(groups.get(name) ?? []), result]);
  }
  return Object.fromEntries(
    [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, figures(v)]),
  );
}

/** Scores one answer against its case. */
export function scoreAnswer(item: RetrievalCase, response: ChatResponse): AnswerCaseResult {
  const isGold = (citation: Citation) => item.gold.some((gold) => citationIsGold(citation, gold));
  const first = response.citations.find((citation) => citation.index === 1);
  return {
    query: item.query,
    gold: item.gold,
    ...(item.split ? { split: item.split } : {}),
    agent: response.agentUsed ?? '',
    secondaryAgents: response.secondaryAgents,
    cited: response.citations.map((c) => `${c.source}#${c.section ?? c.title}`),
    citesGold: response.citations.some(isGold),
    firstCitationGold: first !== undefined && isGold(first),
    notInBook: response.citations.length === 0,
  };
}

/**
 * Asks `assistant` every case's question, one at a time and with no session (no history), and
 * reports how often the answer cites a gold section, how often citation [1] is gold, and how often
 * the answer cites nothing ("not in the book"), overall, per answering agent and per split.
 *
 * @example
 * const report = await evaluateAnswers({ cases, assistant });
 * console.log(report.citesGold, report.perAgent.glossary);
 */
export async function evaluateAnswers(input: {
  cases: readonly RetrievalCase[];
  assistant: Assistant;
  signal?: AbortSignal;
}): Promise<AnswerReport> {
  const perQuery: AnswerCaseResult[] = [];
  for (const item of input.cases) {
    const response = await input.assistant.ask(
      { query: item.query },
      input.signal ? { signal: input.signal } : {},
    );
    perQuery.push(scoreAnswer(item, response));
  }
  return {
    mode: input.assistant.mode,
    ...figures(perQuery),
    perAgent: groupFigures(perQuery, (r) => r.agent),
    perSplit: groupFigures(perQuery, (r) => r.split),
    perQuery,
  };
}
