/**
 * Reads the shape of a coding request, model-free: which clauses ask for something and which only
 * set the scene ("before implementing it, …"), rule something out ("don't redesign anything") or
 * ask a question; and the head word of each asking clause (the imperative verb, or the noun of
 * "I need a design for …"). A skill is chosen by what the main clause asks for, not by every word
 * the request happens to contain.
 */

/** A clause of the request and what it does. */
export interface Clause {
  text: string;
  role: 'asks' | 'scene' | 'ruled-out' | 'keeps';
  /** The head word or phrasal verb of an asking clause ("repair", "get rid of", "design"). */
  head?: string;
  /** True when the head is an imperative verb; false for the noun of "I need a plan". */
  headIsVerb?: boolean;
}

/** How a request reads. */
export interface RequestReading {
  clauses: Clause[];
  /** The text of the asking clauses: what the request asks for. */
  asked: string;
  /** The text of the clauses that rule something out. */
  ruledOut: string;
  /**
   * A question that asks for an explanation or a fact (`explain`: "how does X work?") or for a
   * decision about the project (`decide`: "should we use X or Y?"); undefined for a request.
   */
  question?: 'explain' | 'decide';
}

/** Looks words up: whether a word (or phrasal verb, "map out") is an English verb. */
export interface VerbCheck {
  isVerb(word: string): boolean;
}

/** Openings that only make a request polite or sequence it, peeled off before the head. */
const LEAD_IN =
  /^(?:please|pls|plz|kindly|just|now|so|ok(?:ay)?|hey|hi|also|first(?:ly)?|then|next|finally|quickly|go ahead and|make sure (?:to|you)|be sure to|try to|(?:can|could|would|will) (?:you|we|someone)(?: please)?|let'?s|let us|i need you to|i want you to|i'd like you to|i would like you to|we need to|we have to|we should|we must|you should|i need to|i want to|help me(?: to)?|i'd like to|i would like to)\b[\s,]*/i;

/** Openings after which the head is the noun that follows ("I need a design for …"). */
const WANTS_A =
  /^(?:i|we)(?: really)? (?:need|want|would like|'d like|require)|^give me|^(?:let'?s|we should) (?:have|get)|^(?:there should be|we're missing)/i;

/** Clause openings that set the scene instead of asking: the clause says when or why, not what. */
const SCENE =
  /^(?:before|after|once|when|whenever|while|until|since|because|if|unless|as soon as|so that|now that|given that|in order to|instead of|rather than)\b/i;

/**
 * A clause that says what must stay as it is ("behaviour stays the same", "with no behaviour
 * change", "keeping the output identical"): a constraint on the work, not the work.
 */
export const KEEPS =
  /\b(?:without|no|not|nothing(?: else)?|never)\b[^.]*?\b(?:chang|alter|break|affect|modif)\w*|\b(?:behaviou?rs?|outputs?|api|results?|callers?)\b[^.]{0,30}\b(?:same|identical|unchanged|intact)\b|\b(?:keep|keeping|preserv\w*)\b[^.]*?\b(?:behaviou?rs?|outputs?|tests?|api|results?|green|passing)\b/i;

/** Where a constraint starts inside a clause that asks ("simplify X without changing …"). */
const KEEPS_FROM =
  /\s\b(?:without|while keeping|keeping|but keep|and keep|so that nothing|with no)\b\s.*$/i;

/** Clause openings that say what will happen later, not what to do now. */
const LATER =
  /^(?:we'll|we will|i'll|i will|someone will|later|afterwards|(?:we|i)(?:'re| are|'m| am) (?:going|about|planning) to|we plan to|soon)\b/i;

/** Clause openings that rule out what follows. */
const RULED_OUT =
  /^(?:don'?t|do not|dont|never|no need to|not|avoid|without|no|nothing|nobody|no one)\b|^(?:there's |there is )?no need\b/i;

/** Verbs that say little on their own ("get the test to pass", "take a look"). */
const LIGHT_VERBS = new Set(
  'get have do go take let try see keep start put be give'.split(' '), // `give` only as "give me X"
);

/** Determiners and adjectives before the head noun of "I need a … design". */
const NOUN_PHRASE_END = /\b(?:for|of|to|that|which|with|on|in|about|so|and|where|how|,)\b/i;

/**
 * Splits `request` into clauses and reads each one.
 *
 * @example
 * readRequest("Don't redesign anything, just get the test to pass.", verbs).clauses;
 * // [{ role: 'ruled-out', … }, { role: 'asks', head: undefined, … }]
 */
export function readRequest(request: string, verbs: VerbCheck): RequestReading {
  const sentences = request
    .split(/(?<=[.!?;:])\s+|\s+[-–—]+\s+|\s*\n+\s*/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
  const clauses: Clause[] = [];
  let questions = 0;
  let decide = false;
  for (const sentence of sentences) {
    if (/\?\s*$/.test(sentence) || /^(?:what|which|how|should|would|could)\b/i.test(sentence)) {
      questions += 1;
      if (asksForDecision(sentence)) decide = true;
    }
    const parts = sentence
      .replace(/[.!?;:]+$/, '')
      .split(/\s*,\s+|\s+(?:and then|and|then|but)\s+(?=\S)/i)
      .filter((part) => part.trim().length > 0);
    for (const part of parts) clauses.push(...readClause(part.trim(), verbs));
  }
  // "Before implementing it" alone is no clause that asks: it still says what the request is about.
  if (!clauses.some((clause) => clause.role === 'asks'))
    for (const clause of clauses) if (clause.role === 'scene') clause.role = 'asks';
  const isRequest = /^\s*(?:can|could|would|will) (?:you|we|someone)\b/i.test(request);
  const question =
    questions > 0 && questions === sentences.length && !isRequest
      ? decide
        ? 'decide'
        : 'explain'
      : decide
        ? 'decide'
        : undefined;
  return {
    clauses,
    asked: clauses
      .filter((clause) => clause.role === 'asks')
      .map((clause) => clause.text)
      .join('. '),
    ruledOut: clauses
      .filter((clause) => clause.role === 'ruled-out')
      .map((clause) => clause.text)
      .join('. '),
    ...(question ? { question } : {}),
  };
}

/**
 * A question about what the project should do ("should we …", "X or Y for the cache?"), as opposed
 * to one about how something works ("which is faster in Python, X or Y?").
 */
function asksForDecision(sentence: string): boolean {
  if (
    /\bshould\b|\bwould it be better\b|\bbest way to\b|\bwhat's the best\b|\bwhat (?:would|could) .{0,80}\blook like\b|\bhow (?:would|could) (?:you|we|i)\b/i.test(
      sentence,
    )
  )
    return true;
  return (
    /\bor\b/i.test(sentence) && /\b(?:we|our|us|ours|i|my|mine|for the|for this)\b/i.test(sentence)
  );
}

/** One clause (two when a constraint ends it): its role, and the head of one that asks. */
function readClause(text: string, verbs: VerbCheck): Clause[] {
  if (SCENE.test(text) && !KEEPS.test(text)) return [{ text, role: 'scene' }];
  // "Simplify X without changing its output": the part before the constraint asks.
  const constraint = KEEPS_FROM.exec(text);
  if (constraint && KEEPS.test(constraint[0]) && !KEEPS.test(text.slice(0, constraint.index)))
    return [
      ...readClause(text.slice(0, constraint.index), verbs),
      { text: constraint[0].trim(), role: 'keeps' },
    ];
  if (KEEPS.test(text)) return [{ text, role: 'keeps' }];
  let rest = text;
  for (let peeled = rest.replace(LEAD_IN, ''); peeled !== rest; peeled = rest.replace(LEAD_IN, ''))
    rest = peeled;
  if (RULED_OUT.test(rest)) return [{ text, role: 'ruled-out' }];
  // "then we'll build it next week": what someone will do later is not what is asked now.
  if (LATER.test(rest)) return [{ text, role: 'scene' }];
  // "Document the API before anyone starts": the scene starts mid-clause.
  const scene = /\s\b(?:before|after|once|until)\b\s.*$/i.exec(rest);
  const asked = scene ? rest.slice(0, scene.index) : rest;
  const tail: Clause[] = scene ? [{ text: scene[0].trim(), role: 'scene' }] : [];
  return [headOf(asked, verbs), ...tail];
}

/** An asking clause with its head, if it has one. */
function headOf(asked: string, verbs: VerbCheck): Clause {
  if (WANTS_A.test(asked)) {
    const noun = asked.replace(WANTS_A, '').split(NOUN_PHRASE_END)[0] ?? '';
    const head = noun.trim().split(/\s+/).filter(Boolean).pop();
    return {
      text: asked,
      role: 'asks',
      ...(head ? { head: head.toLowerCase(), headIsVerb: false } : {}),
    };
  }
  const words = asked.toLowerCase().match(/[a-z][a-z'-]*/g) ?? [];
  const first = words[0];
  if (!first || !/^[a-z]/i.test(asked.trim())) return { text: asked, role: 'asks' };
  // The longest phrasal verb WordNet knows at the start ("get rid of", "map out", "hunt down").
  for (const length of [3, 2]) {
    const phrase = words.slice(0, length).join(' ');
    if (words.length >= length && verbs.isVerb(phrase))
      return { text: asked, role: 'asks', head: phrase, headIsVerb: true };
  }
  // A gerund opens a statement ("Uploading a big file hangs"), not an imperative.
  if (LIGHT_VERBS.has(first) || first.endsWith('ing') || !verbs.isVerb(first))
    return { text: asked, role: 'asks' };
  return { text: asked, role: 'asks', head: first, headIsVerb: true };
}
