import { splitSentences, type Sentence } from './sentences.js';

/** A quotable sentence of a passage with its terms (never changed once made: it is shared). */
export interface PassageSentence extends Sentence {
  terms: ReadonlySet<string>;
}

/** A passage's quotable sentences, each with its terms. */
export type PassageSentences = (text: string) => readonly PassageSentence[];

/**
 * Passages whose sentences are kept. The sample book has 146, a large book's answers keep coming
 * back to a few hundred; past the limit the oldest passage is dropped.
 */
export const PASSAGE_SENTENCES_LIMIT = 1_000;

/** Splits a passage into its sentences and each sentence into its terms, every time. */
export function passageSentences(terms: (text: string) => string[]): PassageSentences {
  return (text) =>
    splitSentences(text).map((sentence) => ({ ...sentence, terms: new Set(terms(sentence.text)) }));
}

/**
 * {@link passageSentences}, worked out once per passage text and kept (up to `limit` passages).
 * Why: an extractive answer split every retrieved passage and analysed every sentence again on
 * each question, about half of what a `/chat` request allocated (~150 of ~330 KB), and under load
 * that garbage is what grows the server's heap; the same passages come back question after
 * question.
 *
 * @example
 * const sentencesOf = cachedPassageSentences((text) => analyze(text));
 * sentencesOf(chunk.text); // the same array for the same text
 */
export function cachedPassageSentences(
  terms: (text: string) => string[],
  limit = PASSAGE_SENTENCES_LIMIT,
): PassageSentences {
  const split = passageSentences(terms);
  const kept = new Map<string, readonly PassageSentence[]>();
  return (text) => {
    let sentences = kept.get(text);
    if (sentences) return sentences;
    sentences = split(text);
    if (kept.size >= limit) kept.delete(kept.keys().next().value!);
    kept.set(text, sentences);
    return sentences;
  };
}
