/** The question forms the router recognises (book-subagents-research.md R2, R3). */
export const INTENT_CUES = [
  'definition',
  'explanation',
  'specs',
  'guidance',
  'troubleshooting',
] as const;
/** One question form; `general` when none is recognised. */
export type IntentCue = (typeof INTENT_CUES)[number] | 'general';

/** The cues found in a query and the one that names its main ask. */
export interface IntentCues {
  /** Every cue found, in the order its first match appears in the query. */
  cues: Array<(typeof INTENT_CUES)[number]>;
  /** The cue of the main ask: the earliest match, with definitions of a bare term first. */
  intent: IntentCue;
}

const TERM = String.raw`(?:a |an |the )?[\w.+/-]+(?: [\w.+/-]+){0,3}`;

// Each pattern runs on the normalised text (lowercase, no apostrophes, single spaces) so that the
// forms match whatever the punctuation and casing of the query.
const PATTERNS: Record<(typeof INTENT_CUES)[number], RegExp> = {
  definition: new RegExp(
    String.raw`\b(?:define|definition|defined|meaning|means|mean|stand for|stands for|acronym|abbreviation|terminology|the term|what is meant by)\b|` +
      String.raw`\b(?:tell me|know|explain|wondering|idea) what (?:a |an |the )?[\w.+/-]+(?: [\w.+/-]+){0,2} (?:is|are)$|` +
      String.raw`^(?:so |and |ok |hey |um )?(?:what is|whats|what are|what r|what re|wat is|what s)\s+(?!the (?:best|cheapest|difference|role|purpose|scope|point|cost|price)\b)${TERM}$`,
  ),
  explanation: new RegExp(
    String.raw`\b(?:how (?:does|do|did|is|are|can|could|would)|explain|explanation|why|walk me through|walkthrough|break down|intuition|describe|difference between|differ|in simple terms|understand|works?)\b`,
  ),
  specs: new RegExp(
    String.raw`\b(?:specs?|specifications?|requirements?|required|minimum|recommended|how much (?:ram|memory|vram|power|storage|does|do|is)|(?:do|does) (?:i|we|it|you) need|cost|costs|price|prices|pricing|budget|cheap|cheaper|cheapest|buy|purchase|afford|per hour|compare|comparison|vs|versus|enough|draws?|tops|gb|tb)\b`,
  ),
  guidance: new RegExp(
    String.raw`\b(?:should (?:i|we)|how should|recommend|plan|planning|sequence|steps?|milestones?|deliverables?|deadline|due|graded|grading|rubric|submit|hand in|checklist|timeline|organi[sz]e|split|phases?|roadmap|tips|advice|suggest)\b`,
  ),
  troubleshooting: new RegExp(
    String.raw`\b(?:debug|debugging|troubleshoot|fix|error|errors|fails?|failing|failed|crash(?:es|ing)?|doesnt|does not|dont|wont|cant|never|keeps|broken|lags?|lagging|drift(?:s|ing)?|stuck|wrong|not working|gets lost|falls? over)\b`,
  ),
};

/**
 * Finds the question forms in `words` (normalised words of the query).
 *
 * @example
 * detectIntentCues(['what', 'is', 'a', 'topic']).intent; // 'definition'
 */
export function detectIntentCues(words: readonly string[]): IntentCues {
  const text = words.join(' ');
  const found: Array<{ cue: (typeof INTENT_CUES)[number]; at: number }> = [];
  for (const cue of INTENT_CUES) {
    const match = PATTERNS[cue].exec(text);
    if (match) found.push({ cue, at: match.index });
  }
  found.sort((a, b) => a.at - b.at);
  const cues = found.map(({ cue }) => cue);
  // "What is X?" and "Define X" name a definition even when a later word ("work") looks explanatory.
  const intent: IntentCue =
    cues.includes('definition') && found[0]?.at === 0 ? 'definition' : (cues[0] ?? 'general');
  return { cues, intent };
}

/**
 * Words that carry a question's form (what kind of answer it wants) or its tone, not its subject:
 * "price" in "What's the price of gold?" asks for a figure, but the subject is gold. The router
 * judges whether the book covers a question by the other words.
 */
export const FORM_WORDS: ReadonlySet<string> = new Set(
  // definition
  (
    'define defined defining definition definitions meaning meanings mean means meant stand stands ' +
    'acronym abbreviation terminology term terms word words exactly precisely actually really ' +
    'basically simply called refer refers ' +
    // explanation
    'explain explained explaining explanation explanations describe described description how why ' +
    'walk walkthrough break understand understanding intuition difference differences differ differs ' +
    'work works working worked happen happens happening role purpose simple plain detail details ' +
    'overview example examples ' +
    // specs
    'spec specs specification specifications requirement requirements required require requires ' +
    'minimum maximum recommended cost costs price prices pricing budget cheap cheaper cheapest ' +
    'expensive buy buying bought purchase afford need needed needs enough compare comparison versus vs ' +
    'better best good great ' +
    // guidance
    'should recommend recommendation plan planning sequence step steps tips tip advice suggest ' +
    'suggestion way ways start begin approach help ' +
    // troubleshooting
    'debug debugging troubleshoot fix fixing fixed error errors fail fails failing failed problem ' +
    'problems issue issues wrong broken ' +
    // tone and filler
    'thing things stuff question questions kind sort lot bit quick quickly short brief briefly ' +
    'sentence line hey hi hello thanks thank okay ok sure maybe please'
  )
    .split(/\s+/)
    .filter(Boolean),
);
