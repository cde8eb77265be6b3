/**
 * A question without the HTML it was pasted with: elements whose content is no text (script,
 * style) go whole, any other tag leaves its text ("<b>What is Nav2?</b><script>alert(1)</script>"
 * → "What is Nav2?"). Before, "alert" from the script was searched and the answer quoted the
 * book's "Budget Alerts". Text with no tag comes back as it is.
 *
 * @example
 * withoutMarkup('<b>What is Nav2?</b>'); // 'What is Nav2?'
 */
export function withoutMarkup(question: string): string {
  if (!question.includes('<')) return question;
  const text = question
    .replace(NO_TEXT_ELEMENT, ' ')
    .replace(COMMENT, ' ')
    .replace(TAG, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  // A question made only of markup keeps its text: the answer then says what was asked.
  return text === '' ? question : text;
}

const NO_TEXT_ELEMENT = /<(script|style|template|noscript)\b[^>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi;
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
// A tag: "<" and a letter or "/", so "a < b" and "<3" stay.
const TAG = /<\/?[a-z][a-z0-9-]*\b[^<>]*>/gi;
