import { analyze } from './tokenizer.js';

/**
 * "How tall…", "how heavy…", "how long does … last": the question asks for a measure the book
 * writes as a noun ("**Height**: Approximately 1.3 meters", "**Battery Life**: Several hours").
 */
const MEASURES: readonly [asks: RegExp, name: string, nouns: string][] = [
  [/\bhow\s+(?:tall|high|short)\b/i, 'height', 'height'],
  [
    /\bhow\s+(?:heavy|light)\b|\bhow\s+much\s+(?:does|do|did)\s+.{1,40}?\s+weigh\b/i,
    'weight',
    'weight',
  ],
  [
    /\bhow\s+long\s+(?:does|do|will|can)\s+.{1,40}?\s+(?:last|run)\b/i,
    'battery life',
    'life duration',
  ],
  [/\bhow\s+long\b(?!\s+(?:does|do|will|can|is\s+the\s+course|is\s+it))/i, 'length', 'length'],
  [/\bhow\s+(?:far|close)\b/i, 'distance', 'distance range'],
  [/\bhow\s+(?:fast|quick(?:ly)?|slow)\b/i, 'speed', 'speed'],
  [/\bhow\s+(?:big|large|small)\b/i, 'size', 'size'],
  [/\bhow\s+(?:wide|narrow)\b/i, 'width', 'width'],
  [/\bhow\s+(?:deep|shallow)\b/i, 'depth', 'depth'],
  [
    /\bhow\s+(?:expensive|cheap|costly)\b|\bhow\s+much\s+(?:does|do|is|are)\s+.{1,40}?\s+cost\b/i,
    'cost',
    'cost price',
  ],
  [/\bhow\s+(?:strong|powerful)\b|\bhow\s+much\s+(?:power|energy)\b/i, 'power', 'power'],
];

/**
 * The index terms of the measures a question asks for with an adjective ("How tall is the H1?" →
 * `height`), for sentence choice to read beside the question's own words; none for other
 * questions.
 *
 * @example
 * measureTerms('How tall is the Unitree H1?'); // ['height']
 */
export function measureTerms(query: string): string[] {
  return measuresAsked(query).flatMap((measure) => measure.terms);
}

/** A measure a question asks for: its name ("weight") and its index terms. */
export interface MeasureAsked {
  name: string;
  terms: string[];
}

/** The measures a question asks for with an adjective, by name ({@link measureTerms}). */
export function measuresAsked(query: string): MeasureAsked[] {
  return MEASURES.filter(([asks]) => asks.test(query)).map(([, name, nouns]) => ({
    name,
    terms: analyze(nouns),
  }));
}
