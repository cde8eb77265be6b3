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
