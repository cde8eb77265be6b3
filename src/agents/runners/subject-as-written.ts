import { MIN_FUZZY_LENGTH, oneEditApart } from '../../retrieval/index.js';
import type { RetrievedChunk } from '../../schema/index.js';
import type { QuestionSubject } from './question-subject.js';

/** A word of a passage as {@link subjectAsWritten} compares it: letters only. */
const WORD = /[A-Za-z]+/g;
/** A head word that may be a slip: letters, capitalised at most at its start (not "ROS", "IMU"). */
const PLAIN_WORD = /^[A-Za-z][a-z]+$/;

/**
 * The question's subject as the retrieved passages write it. A head word that no passage writes,
 * one edit (a letter added, dropped, changed, or two swapped) from a word they do, as typed or as
 * stems, is read as that word, the one they write most: "explain ros2 qos polices" asks about "policies", "explain nav2
 * planers" about "planners", "explain ros2 launch flies" about "files".
 *
 * Why here: such a slip is an English word, and both spellers leave English words as typed
 * (routing's, and the query vocabulary's, which never reads one English word as another: "whose"
 * is not the book's "whole"). The ranking still finds the passages through the question's other
 * words ("ros2", "qos"), but sentence choice then asked every sentence to name "polices", which
 * the book never writes, and the answer said the book had nothing on the subject. Among the
 * passages found for the rest of the question, a word one edit from the head is what was meant.
 *
 * Not when the router found words outside the book (`requireSubject`): a quote must then name
 * the subject as asked ("bread baking" is not the book's "making"). A head some passage writes,
 * one shorter than {@link MIN_FUZZY_LENGTH} letters, or a name with inner capitals stays as asked.
 *
 * @example
 * subjectAsWritten(questionSubject('explain ros2 qos polices'), chunks, { terms }).head; // 'policies'
 */
export function subjectAsWritten(
  subject: QuestionSubject,
  chunks: readonly RetrievedChunk[],
  options: { terms: (text: string) => string[]; requireSubject?: boolean },
): QuestionSubject {
  const head = subject.head;
  if (
    options.requireSubject === true ||
    head === undefined ||
    head.length < MIN_FUZZY_LENGTH ||
    !PLAIN_WORD.test(head)
  )
    return subject;
  const headTerms = options.terms(head);
  if (headTerms.length === 0) return subject;
  const texts = chunks.map((chunk) => `${chunk.section ?? ''}\n${chunk.text}`);
  // Passage by passage, stopping at the first that completes the head: this runs on every answer,
  // and the head is almost always written, most often in the best passage.
  const written = new Set<string>();
  for (const text of texts) {
    for (const term of options.terms(text)) written.add(term);
    if (headTerms.every((term) => written.has(term))) return subject;
  }
  const typed = head.toLowerCase();
  // Compared as written ("flies" / "files") and as stems ("planers" / "planners": planer /
  // planner), a stem only when long enough to place; never onto a stopword, which names nothing.
  const stem =
    headTerms.length === 1 && headTerms[0]!.length >= MIN_FUZZY_LENGTH - 1
      ? headTerms[0]
      : undefined;
  const near = new Map<string, boolean>();
  const isNear = (word: string) => {
    let answer = near.get(word);
    if (answer === undefined) {
      const own = options.terms(word);
      answer =
        own.length > 0 &&
        (oneEditApart(typed, word) ||
          (stem !== undefined && own.length === 1 && oneEditApart(stem, own[0]!)));
      near.set(word, answer);
    }
    return answer;
  };
  const counts = new Map<string, number>();
  for (const text of texts)
    for (const [word] of text.matchAll(WORD)) {
      const lower = word.toLowerCase();
      if (lower.length >= MIN_FUZZY_LENGTH && isNear(lower))
        counts.set(lower, (counts.get(lower) ?? 0) + 1);
    }
  let meant: string | undefined;
  for (const [word, count] of counts) if (count > (counts.get(meant ?? '') ?? 0)) meant = word;
  if (meant === undefined) return subject;
  const phrase = subject.phrase?.replace(
    new RegExp(`\\b${head}\\b(?!.*\\b${head}\\b)`, 'i'),
    meant,
  );
  return { ...subject, head: meant, ...(phrase !== undefined ? { phrase } : {}) };
}
