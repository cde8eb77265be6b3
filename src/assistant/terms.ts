import { stemmer } from 'stemmer';

const STOPWORDS = new Set(
  "a an and are as at be by can could do does did for from has have how i in is it its me my of on or our should so that the their them then there these they this to was we what when where which who why will with would you your about into over than also any each just more most not only other some such very what's whats tell explain define please".split(
    ' ',
  ),
);

/**
 * Lowercased, stemmed content words of `text`, for comparing sentences with a question.
 *
 * @example
 * answerTerms('How do ROS 2 topics work?'); // ['ros', '2', 'topic', 'work']
 */
export function answerTerms(text: string): string[] {
  const out: string[] = [];
  for (const token of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (token.length === 0 || STOPWORDS.has(token)) continue;
    out.push(stemmer(token));
  }
  return out;
}
