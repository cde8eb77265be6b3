/**
 * Where a question has "it" or "them" as an object ("Which numerical methods can solve it?"):
 * such a pronoun stands for something said in an earlier turn. Read by `resolveFollowUp`.
 */

/**
 * "it", "them" and "one" as the object of a verb or preposition ("solve it", "mounted on them",
 * "build one": a new one of the kind the earlier turn asked about).
 */
const OBJECT_PRONOUN = /\b(?:it|them|one)\b/gi;
/** Words before "one" that make it a noun's determiner or a number, not a pronoun ("the best one"). */
const BEFORE_NUMBER_ONE =
  /^(?:the|a|an|this|that|which|each|every|no|any|another|some|only|just|best|first|last|next|new|right|wrong|good|better|cheaper|cheapest|other|same|main|single|than|of|one|per)$/i;
/** Words after which a pronoun is its clause's subject, not an object ("does it", "is it"). */
const BEFORE_SUBJECT =
  /^(?:is|are|was|were|be|been|do|does|did|can|could|will|would|should|shall|may|might|must|has|have|had|what|which|how|why|where|when|who)$/i;
/**
 * Signs of a second clause, where a pronoun may stand for a noun of the first ("How does the robot
 * pick up a cup without dropping it?", "Which sensor should I buy, and how do I calibrate it?").
 */
const SECOND_CLAUSE =
  /[,;:]|[.?!]\s|\b(?:and|but|or|so|then|if|when|whenever|while|because|since|until|unless|once|whether|though|although|without|after|before|that|which|who|whose|where)\b/i;
/**
 * Up to the pronoun, signs of a clause within the question: an infinitive ("How does the robot get
 * people to trust it?", where "it" is the robot) or a verb's "-ing" form after another word than a
 * preposition ("… show the judges people like using it").
 */
const INNER_CLAUSE =
  /\bto\s+\w|\b(?!(?:on|in|for|with|at|from|by|about|of)\b)[a-z]+\s+[a-z]{2,}ing$/i;
/**
 * Words before "it" that make it no object standing for a subject: "worth it", and a part of
 * something unnamed ("can I copy some of it?" asks about the book).
 */
const NOT_AN_OBJECT = /^(?:worth)$|^(?:some|all|any|most|much|part|rest|none|each|more|lots?) of$/i;
/**
 * What may follow an object pronoun in a one-clause question: particles ("lift it up"), then a
 * phrase that opens with a preposition ("install it on a Jetson"). "call it when a robot slips",
 * "know it is holding" go on with a clause of their own.
 */
const OBJECT_TAIL =
  /^(?:(?:up|down|out|off|back|again|first|together|properly|correctly|safely|well)\b\s*)*(?:(?:on|in|into|onto|with|for|to|from|at|by|over|under|against|than|like|during|inside|through|across|via|per)\b.*)?$/i;
/** A question's opening word: a wh-word or an auxiliary ("Which …", "How …", "Can …"). */
const QUESTION_OPENING =
  /^(?:what|which|how|why|where|when|who|can|could|should|would|will|do|does|did|is|are)\b/i;

/**
 * Where `question` (without a conversational opener such as "ok but") has "it" or "them" as the
 * object of a verb or a preposition in a question of one clause ("Which numerical methods can
 * solve it?", "What sensors are mounted on it?", "How do I install it?"). An object cannot stand for its own clause's subject (that would be "itself"),
 * and one clause has no other noun before it to stand for, so it stands for an earlier turn's
 * subject. These were left as asked, and "Which numerical methods can solve it?" after "What is
 * inverse kinematics?" was routed to the hardware agent.
 *
 * @example
 * objectPronounAt('Which numerical methods can solve it?'); // { index: 34, word: 'it' }
 * objectPronounAt('How does the robot pick up a cup without dropping it?'); // undefined
 */
export function objectPronounAt(question: string): { index: number; word: string } | undefined {
  if (!QUESTION_OPENING.test(question)) return undefined;
  for (const match of question.matchAll(OBJECT_PRONOUN)) {
    const words = question.slice(0, match.index).trim().split(/\s+/);
    const governing = words.at(-1) ?? '';
    if (BEFORE_SUBJECT.test(governing)) continue;
    if (NOT_AN_OBJECT.test(governing) || NOT_AN_OBJECT.test(words.slice(-2).join(' ')))
      return undefined;
    const one = /^one$/i.test(match[0]);
    if (one && BEFORE_NUMBER_ONE.test(governing)) continue;
    const between = words.slice(1, -1).join(' ');
    // "one" is a new thing of a kind, never the subject of its own question: an infinitive before
    // it ("Which tools does the book use to build one?") leaves it the earlier turn's.
    if (!one && INNER_CLAUSE.test(words.slice(1).join(' '))) return undefined;
    const tail = question
      .slice(match.index + match[0].length)
      .replace(/[?!.\s]+$/, '')
      .trim();
    if (SECOND_CLAUSE.test(between) || SECOND_CLAUSE.test(tail) || !OBJECT_TAIL.test(tail))
      return undefined;
    return { index: match.index, word: match[0] };
  }
  return undefined;
}
