import { analyze } from './tokenizer.js';
import { workNamePattern } from './work-names.js';

/**
 * "How tall…", "how heavy…", "how long does … last": the question asks for a measure the book
 * writes as a noun ("**Height**: Approximately 1.3 meters", "**Battery Life**: Several hours").
 */
const LENGTH_UNIT = /\d\s*(?:m|cm|mm|km|meters?|metres?|ft|feet|foot|inch(?:es)?)\b/i;
const MEASURES: readonly [asks: RegExp, name: string, nouns: string, value: RegExp][] = [
  [/\bhow\s+(?:tall|high|short)\b/i, 'height', 'height', LENGTH_UNIT],
  [
    /\bhow\s+(?:heavy|light)\b|\bhow\s+much\s+(?:does|do|did)\s+.{1,40}?\s+weigh\b/i,
    'weight',
    'weight',
    /\d\s*(?:kg|kilograms?|g|grams?|lbs?|pounds?|tons?|tonnes?)\b/i,
  ],
  [
    /\bhow\s+long\s+(?:does|do|will|can)\s+.{1,40}?\s+(?:last|run)\b/i,
    'battery life',
    'life duration',
    /\d\s*(?:h|hrs?|hours?|minutes?|mins?)\b|\bseveral\s+hours\b/i,
  ],
  [
    // Not "how long is this class?": the work's length is a time, which its opening page gives.
    // The work as every reader names it (work-names.ts): "the class", "the program" are code's.
    new RegExp(
      String.raw`\bhow\s+long\b(?!\s+(?:does|do|will|can|is\s+${workNamePattern()}|is\s+it))`,
      'i',
    ),
    'length',
    'length',
    LENGTH_UNIT,
  ],
  [/\bhow\s+(?:far|close)\b/i, 'distance', 'distance range', LENGTH_UNIT],
  [
    /\bhow\s+(?:fast|quick(?:ly)?|slow)\b/i,
    'speed',
    'speed',
    /\d\s*(?:m\/s|km\/h|kph|mph|hz|fps|ms)\b/i,
  ],
  [
    /\bhow\s+(?:big|large|small)\b/i,
    'size',
    'size',
    // "How big is the discount?" (a share), "how large is its memory?" (bytes), or a length.
    /\d\s*(?:%|percent|gb|tb|mb|kb)|\d\s*(?:m|cm|mm|km|meters?|metres?|ft|feet|foot|inch(?:es)?)\b/i,
  ],
  [/\bhow\s+(?:wide|narrow)\b/i, 'width', 'width', LENGTH_UNIT],
  [/\bhow\s+(?:deep|shallow)\b/i, 'depth', 'depth', LENGTH_UNIT],
  [
    /\bhow\s+(?:expensive|cheap|costly)\b|\bhow\s+much\s+(?:does|do|is|are)\s+.{1,40}?\s+cost\b/i,
    'cost',
    'cost price',
    /[$€£¥]\s?\d|\d\s*(?:usd|eur|dollars?|euros?)\b/i,
  ],
  [
    /\bhow\s+(?:strong|powerful)\b|\bhow\s+much\s+(?:power|energy)\b/i,
    'power',
    'power',
    /\d\s*(?:w|kw|watts?|kilowatts?|wh|kwh)\b/i,
  ],
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
  /**
   * A value written in the measure's unit ("~$0.75-1.00 per hour", "Around 40-45 kg"): a line
   * with one states the measure though it never names it.
   */
  value: RegExp;
}

/** The measures a question asks for with an adjective, by name ({@link measureTerms}). */
export function measuresAsked(query: string): MeasureAsked[] {
  return MEASURES.filter(([asks]) => asks.test(query)).map(([, name, nouns, value]) => ({
    name,
    terms: analyze(nouns),
    value,
  }));
}
