import type { AcronymMap } from './acronyms.js';
import type { LexicalIndex } from './lexical-index.js';
import type { SpelledAcronym } from './spelled-acronyms.js';
import { QUERY_STOPWORDS, STOPWORDS } from './stopwords.js';
import { analyze, stem, tokenize } from './tokenizer.js';
import type { WordNet } from './wordnet.js';

/** Weight of each word of an acronym's long form when the query used the acronym. */
export const ACRONYM_LONG_FORM_WEIGHT = 0.5;
/** Weight of an acronym when the query spelled out its long form. */
export const ACRONYM_WEIGHT = 0.8;
/** Weight of a WordNet synonym, derivation or attribute: a hint, never a match by itself. */
export const WORDNET_WEIGHT = 0.3;
/** Top weight of a WordNet definition word, reached by the corpus's rarest terms (see `definitionsByIdf`). */
export const DEFINITION_WEIGHT = 0.3;

/** Which query word (stemmed) each expansion term stands for: a "concept" of the query. */
export type ConceptMap = Map<string, string>;

/** Options of {@link expandWithWordNet}. */
export interface WordNetExpansionOptions {
  /**
   * Weight definition words apart from synonyms, by corpus idf: a rare definition word ("axis")
   * says more about the topic than a common one ("make"). Off, they share the synonyms' weight.
   */
  definitionsByIdf?: boolean;
  /** Filled with the query concept of each expansion term. */
  concepts?: ConceptMap;
}

const add = (map: Map<string, number>, term: string, weight: number) => {
  map.set(term, Math.max(map.get(term) ?? 0, weight));
};

/** The query's terms: stopwords and asking-words dropped, stemmed; bigrams when the index has them. */
export function queryTerms(query: string, index: LexicalIndex): Map<string, number> {
  let tokens = analyze(query, QUERY_STOPWORDS);
  if (tokens.length === 0) tokens = analyze(query);
  const terms = new Map<string, number>();
  for (const token of tokens) terms.set(token, 1);
  if (index.bigrams) {
    for (let i = 1; i < tokens.length; i++) add(terms, `${tokens[i - 1]} ${tokens[i]}`, 0.5);
  }
  return terms;
}

/** Adds long forms for acronyms in the query and acronyms for long forms spelled out in it. */
export function expandAcronyms(
  query: string,
  acronyms: AcronymMap,
  terms: Map<string, number>,
  expansions: Map<string, number>,
  concepts?: ConceptMap,
) {
  const words = tokenize(query);
  const joined = ` ${words.join(' ')} `;
  for (const word of words) {
    for (const longForm of acronyms.get(word) ?? []) {
      for (const term of analyze(longForm))
        if (!terms.has(term)) {
          add(expansions, term, ACRONYM_LONG_FORM_WEIGHT);
          concepts?.set(term, stem(word));
        }
    }
  }
  for (const [acronym, longForms] of acronyms) {
    for (const longForm of longForms) {
      if (joined.includes(` ${longForm} `) && !terms.has(acronym)) {
        add(expansions, stem(acronym), ACRONYM_WEIGHT);
        // The acronym stands for the long form's last word's concept ("… operating system" → "system").
        const last = analyze(longForm).at(-1);
        if (last) concepts?.set(stem(acronym), last);
      }
    }
  }
}

/**
 * Adds the acronyms a question spells out that the corpus writes only short ("end of life" → EOL,
 * see `createSpelledAcronyms`), as an acronym the corpus defines is added for its long form.
 */
export function expandSpelledAcronyms(
  spelled: readonly SpelledAcronym[],
  terms: Map<string, number>,
  expansions: Map<string, number>,
  concepts?: ConceptMap,
) {
  for (const { acronym, last } of spelled) {
    const term = stem(acronym);
    if (terms.has(term)) continue;
    add(expansions, term, ACRONYM_WEIGHT);
    concepts?.set(term, stem(last));
  }
}

/** Weight of the corpus's full name for a word the question writes alone ("Mac" → macOS). */
export const FULL_NAME_WEIGHT = 0.8;

/**
 * Adds the corpus's full name of each word the question writes alone that the corpus writes
 * mostly as the start of a name ("Mac" → macOS; see `createFullNames`).
 */
export function expandFullNames(
  query: string,
  fullName: (word: string) => string | undefined,
  terms: Map<string, number>,
  expansions: Map<string, number>,
  concepts?: ConceptMap,
) {
  for (const word of new Set(tokenize(query))) {
    if (!/^[a-z]{3,}$/.test(word)) continue;
    const name = fullName(word);
    if (name === undefined) continue;
    const term = stem(name);
    if (terms.has(term)) continue;
    add(expansions, term, FULL_NAME_WEIGHT);
    concepts?.set(term, stem(word));
  }
}

/** Adds WordNet relatives of the query's words that occur in the corpus. */
export function expandWithWordNet(
  query: string,
  wordnet: WordNet,
  index: LexicalIndex,
  terms: Map<string, number>,
  expansions: Map<string, number>,
  options: WordNetExpansionOptions = {},
) {
  const usable = (related: string) => {
    if (related.includes(' ') || STOPWORDS.has(related)) return undefined;
    const term = stem(related);
    return terms.has(term) || index.df(term) === 0 ? undefined : term;
  };
  const maxIdf = index.idf('');
  for (const word of new Set(tokenize(query))) {
    if (STOPWORDS.has(word) || QUERY_STOPWORDS.has(word) || !/^[a-z]{3,}$/.test(word)) continue;
    const concept = stem(word);
    const found = new Map<string, number>();
    const { synonyms, definitions } = options.definitionsByIdf
      ? wordnet.relations(word)
      : { synonyms: wordnet.related(word), definitions: [] };
    for (const related of synonyms) {
      const term = usable(related);
      if (term) found.set(term, 1);
    }
    for (const related of definitions) {
      const term = usable(related);
      if (term && !found.has(term))
        found.set(term, (DEFINITION_WEIGHT / WORDNET_WEIGHT) * (index.idf(term) / maxIdf));
    }
    // A word with many relatives is ambiguous: its relatives share one word's worth of weight.
    const weight = WORDNET_WEIGHT / Math.max(1, Math.sqrt(found.size / 2));
    for (const [term, share] of found) {
      add(expansions, term, weight * share);
      if (!options.concepts?.has(term)) options.concepts?.set(term, concept);
    }
  }
}
