import type { Agent } from '../../agents/index.js';
import { FORM_WORDS } from '../intent-cues.js';
import { analyzeText, isContentWord } from '../query-text.js';
import { MIN_KEYWORD_DOMAIN_SHARE, type CompiledKnowledge } from '../subject-grounding.js';
import { probabilityOf, type PhaseContext } from './phase.js';

/** A specialist named by its own keywords is a secondary agent from this probability on. */
export const SECONDARY_MIN_PROBABILITY = 0.05;

// A matched keyword is written "word (~typo)" when the speller read it; the typo is not a word.
const keywordText = (matched: string) => matched.replace(/ \(~.*\)$/, '');

// The answers below depend on the matched keyword's text alone (and, for `livesWith`, on the
// book knowledge and the agent's domain): worked out once per keyword, since every question that
// matches a keyword asks again (bounded, so odd input cannot grow them).
const KEYWORD_CACHE_LIMIT = 20_000;
const subjectNamed = new Map<string, boolean>();

/** A matched keyword names a subject unless all its words name the question's form ("how do"). */
export const namesSubject = (matched: string): boolean => {
  let names = subjectNamed.get(matched);
  if (names === undefined) {
    names = analyzeText(keywordText(matched)).words.some(
      (word) => isContentWord(word) && !FORM_WORDS.has(word),
    );
    if (subjectNamed.size < KEYWORD_CACHE_LIMIT) subjectNamed.set(matched, names);
  }
  return names;
};

const livesIn = new WeakMap<CompiledKnowledge, Map<string, Map<string, boolean>>>();

// With book knowledge, the keyword's term must also live mostly in that agent's chapters.
function livesWith(context: PhaseContext, agent: Agent, keyword: string): boolean {
  const knowledge = context.model.knowledge;
  if (!knowledge) return true;
  const domain = agent.retrievalDomain ?? agent.domain;
  let byDomain = livesIn.get(knowledge);
  if (!byDomain) livesIn.set(knowledge, (byDomain = new Map()));
  let known = byDomain.get(domain);
  if (!known) byDomain.set(domain, (known = new Map()));
  let lives = known.get(keyword);
  if (lives === undefined) {
    const text = analyzeText(keywordText(keyword));
    const shares = text.stems
      .filter((_, i) => isContentWord(text.words[i] ?? ''))
      .map((stem) => knowledge.domainShare(stem, domain))
      .filter((share): share is number => share !== undefined);
    lives = shares.length === 0 || Math.max(...shares) >= MIN_KEYWORD_DOMAIN_SHARE;
    if (known.size < KEYWORD_CACHE_LIMIT) known.set(keyword, lives);
  }
  return lives;
}

/**
 * Secondary agents of a one-clause question: other specialists the query names with their own
 * subject keywords that the classifier also finds plausible ("What hardware do I need for the
 * capstone?" → capstone). A definition is one ask, whatever domain its term is from, and the
 * default agent takes no helpers. Sorted by the classifier's probability.
 *
 * @example
 * secondaryAgents(phaseContext(model, 'What hardware do I need for the capstone?', settings), 'hardware'); // ['capstone']
 */
export function secondaryAgents(context: PhaseContext, primary: string): string[] {
  const { model, analyzed, specialists, definer } = context;
  if (primary === model.defaultAgent || primary === definer?.name) return [];
  // Loops rather than filter, map and some with their closures: every clause of every question.
  const secondary: string[] = [];
  for (const agent of specialists) {
    if (agent.name === primary) continue;
    const matched = analyzed.keywords[agent.name]?.matched;
    if (matched === undefined) continue;
    let named = false;
    for (const keyword of matched)
      if (namesSubject(keyword) && livesWith(context, agent, keyword)) {
        named = true;
        break;
      }
    if (named && probabilityOf(context, agent.name) >= SECONDARY_MIN_PROBABILITY)
      secondary.push(agent.name);
  }
  return secondary.sort((a, b) => probabilityOf(context, b) - probabilityOf(context, a));
}
