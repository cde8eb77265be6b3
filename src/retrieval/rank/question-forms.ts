import type { LexicalIndex } from './lexical-index.js';
import { stem } from './tokenizer.js';

/**
 * A way of asking and the words textbooks file its answer under: "how do I judge whether it drives
 * safely?" is answered in a section called "Safety Metrics", though the question never says
 * "metric". Students paraphrase the topic words; these section words are what is left to match.
 */
export interface QuestionForm {
  name: string;
  /** Tested against the lower-cased query. */
  pattern: RegExp;
  /** Words of section headings that answer this form (stemmed when used). */
  sectionWords: readonly string[];
  /**
   * Query words that belong to the form's phrase, not to its topic ("end" in "by the end of the
   * course"): taken out of the query's terms when the form is found.
   */
  formWords?: readonly string[];
}

/**
 * Generic textbook structure, not any one book's topics: each entry names a kind of question and
 * the heading nouns that kind is answered under in technical textbooks.
 */
export const QUESTION_FORMS: readonly QuestionForm[] = [
  {
    name: 'evaluation',
    pattern:
      /\b(?:measur\w*|judg\w*|grad(?:e|es|ing)|evaluat\w*|assess\w*|benchmark\w*|how well|how good|quantif\w*)\b/,
    sectionWords: ['metric', 'evaluation', 'assessment', 'benchmark'],
  },
  {
    name: 'scenario',
    pattern: /\b(?:situations?|scenarios?|circumstances?|cases)\b/,
    sectionWords: ['scenario'],
  },
  {
    name: 'task',
    pattern: /\b(?:jobs?|chores?|tasks?|what can\b.*\b(?:do|learn|handle))\b/,
    sectionWords: ['task', 'application'],
  },
  {
    name: 'validation',
    pattern: /\b(?:checks?|checking|verif\w*|make sure|confirm\w*|sanity)\b/,
    sectionWords: ['validation', 'verification', 'testing'],
  },
  {
    name: 'configuration',
    pattern: /\b(?:knobs?|tun(?:e|es|ing)|tweak\w*|settings?|dials?)\b/,
    sectionWords: ['configuration', 'parameter', 'hyperparameter'],
  },
  {
    name: 'components',
    pattern:
      /\b(?:parts|made of|consists?|consisting|pieces|ingredients|built from|what goes into|should (?:it|my \w+|the \w+) have)\b/,
    sectionWords: ['component'],
  },
  {
    name: 'cost',
    pattern: /\b(?:costs?|cheap\w*|expensive|pric\w*|afford\w*|pay|money|budget)\b/,
    sectionWords: ['cost', 'pricing'],
  },
  {
    name: 'safety',
    pattern: /\b(?:risks?|danger\w*|safe|safely|hazard\w*|harm\w*|accidents?|hurt)\b/,
    sectionWords: ['safety'],
  },
  {
    name: 'challenges',
    pattern:
      /\b(?:problems?|downsides?|drawbacks?|hard|difficult\w*|struggl\w*|obstacles?|hurdles?|pitfalls?|go wrong)\b/,
    sectionWords: ['challenge', 'limitation'],
  },
  {
    name: 'types',
    pattern: /\b(?:types?|kinds?|sorts?|varieties|flavou?rs?|categories)\b/,
    sectionWords: ['type'],
  },
  {
    name: 'process',
    pattern: /\b(?:steps?|procedure|go about|workflow)\b/,
    sectionWords: ['process', 'workflow'],
  },
  {
    name: 'comparison',
    pattern: /\b(?:compar\w*|versus|vs|differ\w*|better than)\b/,
    sectionWords: ['comparison'],
  },
  {
    name: 'future',
    pattern: /\b(?:future|trends?|ahead|coming years)\b/,
    sectionWords: ['future', 'direction'],
  },
  {
    name: 'applications',
    pattern: /\b(?:examples?|use cases?|used for|good for|real[- ]world|in practice)\b/,
    sectionWords: ['application', 'example'],
  },
  {
    name: 'advice',
    pattern: /\b(?:tips?|advice|best way|should i|recommend\w*|guidelines?)\b/,
    sectionWords: ['practice', 'guideline'],
  },
  {
    name: 'purpose',
    pattern: /\b(?:why|purpose|point of|reasons?|benefits?|advantages?|worth)\b/,
    sectionWords: ['benefit', 'purpose'],
  },
  {
    name: 'approach',
    pattern: /\b(?:strateg\w*|approach\w*|ways?|methods?|techniques?|how can)\b/,
    sectionWords: ['strategy', 'approach', 'method'],
  },
  {
    name: 'outcomes',
    pattern:
      /\b(?:(?:should|will|would|must) (?:i|we|you|students?|learners?|readers?) be able to|by the end of (?:the|this|a|each) (?:course|class|week|chapter|module|book|unit|semester|term)|learning (?:outcomes?|objectives?|goals?))\b/,
    sectionWords: ['outcome', 'objective'],
  },
  {
    name: 'by the end',
    pattern:
      /\bby the end of (?:the|this|a|each|our|my) (?:course|class|semester|term|book|module|unit|program|programme)\b/,
    sectionWords: ['outcome', 'objective'],
    formWords: ['end'],
  },
  {
    name: 'focus',
    pattern:
      /\b(?:(?:only|just|mostly|mainly|primarily|really) (?:care|interested|want|focus\w*)|(?:just|only) (?:do|take|study|follow|learn) (?:the|a)\b|shorter (?:route|path|version)|focus(?:ed|ing)? (?:on|only)|speciali[sz]\w*)\b/,
    sectionWords: ['path', 'track', 'focus'],
  },
  {
    name: 'impact',
    pattern: /\b(?:society|workers?|people|ethic\w*|moral\w*|jobs)\b/,
    sectionWords: ['impact', 'ethical', 'social'],
  },
];

/** Weight of a section word named by the question's form: a hint, like a WordNet synonym. */
export const QUESTION_FORM_WEIGHT = 0.3;

/**
 * Adds the section words of every question form `query` takes, when the corpus has them and the
 * query does not already, and takes a form's own phrase words (`formWords`) out of `terms`.
 *
 * @example
 * expandQuestionForms('How do I judge whether a rover drives safely?', index, terms, expansions);
 * // expansions now hold 'metric', 'evalu', 'safeti'...
 */
export function expandQuestionForms(
  query: string,
  index: LexicalIndex,
  terms: Map<string, number>,
  expansions: Map<string, number>,
  forms: readonly QuestionForm[] = QUESTION_FORMS,
): string[] {
  const lower = query.toLowerCase();
  const matched: string[] = [];
  for (const form of forms) {
    if (!form.pattern.test(lower)) continue;
    matched.push(form.name);
    for (const word of form.formWords ?? []) terms.delete(stem(word));
    for (const word of form.sectionWords) {
      const term = stem(word);
      if (terms.has(term) || index.df(term) === 0) continue;
      expansions.set(term, Math.max(expansions.get(term) ?? 0, QUESTION_FORM_WEIGHT));
    }
  }
  return matched;
}
