import { workNamedIn } from '../../retrieval/index.js';

// What the work is asked to cover, after its name: "cover", "talk about", "say anything about".
const COVERAGE_VERB =
  /^\s*(?:(?:ever|really|actually|also)\s+)?(?:cover|covers|discuss|discusses|mention|mentions|talk\s+about|talks\s+about|teach|teaches|include|includes|go\s+into|goes\s+into|deal\s+with|deals\s+with|touch\s+on|touches\s+on|(?:say|says|have|has)\s+anything\s+(?:about|on))\s+(.+)$/i;
// Asked of the work: "Does the guide cover …", "Will this course teach …".
const ASKED_OF_IT = /\b(?:does|do|did|will|would)\s*$/i;
// "Is there anything in the book about …", "Is there a chapter on …".
const IS_THERE =
  /\b(?:is|are)\s+there\s+(?:anything|something|a\s+(?:chapter|section|part|page|lesson)|any\s+(?:chapters?|sections?|parts?|pages?|lessons?))\s+(?:(?:in|of)\s+(?:this|the|your)\s+\w+\s+)?(?:about|on)\s+(.+)$/i;
// Where the thing asked about ends: another ask ("…, and what is a costmap?"), or words about
// where to look ("in the book", "at all").
const PHRASE_END =
  /\s*(?:[,;?!.]|\s+and\s+(?:what|how|why|where|when|which|who|is|are|does|do|can)\b|\s+(?:at\s+all|anywhere|in\s+(?:this|the|your)\s+\w+|in\s+(?:any\s+)?(?:detail|depth)|at\s+length|(?:very\s+)?(?:well|much|thoroughly|properly|deeply))\b).*$/i;
// Quotes around what is asked ('Does the book cover "launch files"?') are not part of it.
const QUOTES = /["“”‘’`]|(?:^|\s)'|'(?=\s|$)/g;

/**
 * The thing a question asks whether the work covers ("Does the guide cover engine repair?" →
 * "engine repair", "Is there anything in the book about motors overheating?" → "motors
 * overheating"), or undefined when it asks nothing of the kind. A reader asking this wants to
 * know whether the book has it, which an answer of the nearest passages does not say.
 */
export function coverageAsked(question: string): string | undefined {
  const text = question.trim();
  const work = workNamedIn(text);
  let asked: string | undefined;
  if (work) {
    const at = text.indexOf(work);
    if (ASKED_OF_IT.test(text.slice(0, at)))
      asked = COVERAGE_VERB.exec(text.slice(at + work.length))?.[1];
  }
  asked ??= IS_THERE.exec(text)?.[1];
  const phrase = asked?.replace(PHRASE_END, '').replace(QUOTES, ' ').replace(/\s+/g, ' ').trim();
  return phrase ? phrase : undefined;
}

/**
 * Most sentences of the retrieved passages that may name a thing the work only mentions in
 * passing: "cooking" is one bullet of the textbook ("Domestic Tasks: Cleaning, cooking, and
 * household chores"), "household chores" two (one in each of two chapters' lists of uses).
 */
export const PASSING_MENTIONS = 2;

/** A retrieved passage as {@link mentionedInPassing} reads it. */
export interface PassageRead {
  title: string;
  section?: string | undefined;
  text: string;
}

/**
 * True when `passages` (those retrieved for the question) name `asked` only in passing: no
 * heading of theirs names it whole, and at most {@link PASSING_MENTIONS} of their sentences do.
 * "Does this class cover cooking?" answered with the one bullet that names cooking, and no word
 * that the book has nothing more on it, read as if the course taught cooking. A subject the work
 * covers has passages headed with it ("Inverse Kinematics", "What is ROS 2?") or names it
 * throughout them.
 *
 * @example
 * mentionedInPassing('cooking', passages, terms, sentencesOf); // true
 */
export function mentionedInPassing(
  asked: string,
  passages: readonly PassageRead[],
  terms: (text: string) => string[],
  sentencesOf: (text: string) => ReadonlyArray<{ terms: ReadonlySet<string> }>,
): boolean {
  const wanted = terms(asked);
  if (wanted.length === 0) return false;
  const holds = (held: ReadonlySet<string>) => wanted.every((term) => held.has(term));
  let mentions = 0;
  for (const passage of passages) {
    if (holds(new Set(terms(`${passage.title}\n${passage.section ?? ''}`)))) return false;
    for (const sentence of sentencesOf(passage.text))
      if (holds(sentence.terms) && (mentions += 1) > PASSING_MENTIONS) return false;
  }
  return mentions > 0;
}
