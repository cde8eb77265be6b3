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

const WORD = String.raw`[\w.+/-]+`;
// A term of up to four words, not one that asks for a figure or a judgement ("nvidia share price").
// An amount of money asked for ("what's the damage in dollars", "what's that in euros") is a figure too.
// A figure asked for in a unit ("the battery life in hours") is no term either.
const IN_UNIT = String.raw`in (?:hours?|minutes?|seconds?|days?|weeks?|months?|years?|dollars?|euros?|pounds?|percent|gb|tb|mb|kg|watts?|volts?|total)\b`;
const TERM = String.raw`(?!(?:\S+ ){0,3}(?:price|prices|cost|costs|worth|budget|bill|fee|fees|dollars|euros|pounds|money)\b|(?:\S+ ){1,3}${IN_UNIT})${WORD}(?: ${WORD}){0,3}`;
// Words that name a value asked for, not a term: "Capstone deadline is what?", "Go2 weight is what?".
const VALUE_WORD = String.raw`(?:deadline|deadlines|due|date|dates|time|timeline|schedule|life|ram|memory|vram|storage|weight|size|height|length|version|format|grade|grades|score|mark|marks|price|cost|budget|minimum|maximum|submission|battery|speed|range|capacity|exam|exams|quiz|test|assessment|assignment|limit)`;
// Words that turn "what is a …" into a request for a recommendation, not a definition.
const NOT_A_DEFINITION = String.raw`(?:good|best|cheap|cheapest|decent|recommended|suitable|minimum|typical|reasonable|better|common|due|needed|required|involved|included|expected|happening|going|causing|up|next|left|missing|wrong|new|changed|different|usually|normally|typically|generally|often|commonly|mostly)`;
const WHAT_IS = String.raw`(?:what is|whats|what s|wat is|wats|wat s|what iz|wat iz|what (?:exactly|precisely|actually|really) is|what is (?:exactly|precisely|actually|really))`;
const WHAT_ARE = String.raw`(?:what are|what r|what re|wat are|wat r|what (?:exactly|precisely|actually|really) are)`;
const OPENING = String.raw`^(?:so |and |ok |hey |um |sorry |quick question |also )?`;
// "anyway", "again": the tail of a definition asked in passing ("…and what's a digital twin anyway?").
const CLOSING = String.raw`(?: anyway| again| exactly| then| here)?$`;
// How short the definition should be: "in a sentence", "in a line", "in a nutshell", "briefly".
const BRIEFLY = String.raw`(?: in (?:a|one) (?:sentence|line|word|phrase|nutshell)| briefly| in short)?`;
// A qualifier that places the term ("a node in ROS 2", "a policy when people talk about robot learning").
const CONTEXT = String.raw`(?: (?:in|within|when|as used in|used in|for|on) ${WORD}(?: ${WORD}){0,5})?`;

// Where a term named with "the" is placed ("the Jacobian matrix in robot kinematics"): not "for",
// which asks for a purpose ("the plan for week 3").
// "… when people talk about robot arms" places it too; a bare "when" does not ("the first step
// when it falls" asks what to do).
const THE_CONTEXT = String.raw`(?: (?!${IN_UNIT})(?:in|within|as used in|used in|when (?:people|you|we|they|engineers|roboticists|researchers) (?:talk|speak|write) about) ${WORD}(?: ${WORD}){0,5})?`;

// "How do I pick a Jetson?" asks which one to have (guidance), not how something works.
const CHOOSER = String.raw`(?:i|we)`;
const CHOOSE = String.raw`(?:pick|choose|select|decide (?:on|between|which))`;

// Two of the definition's alternatives, also left out of it for texts that cannot match them
// (see definitionAt): the term first and the ask last ("JetPack is what?"), and a term then what
// kind of thing it is ("Omniverse, is that a program or a company?").
//
// The term first and the ask last, as in speech or a non-native word order: "JetPack is what?",
// "Imitation learning is what, in a sentence?", "a continuous joint is what kind of joint?". Not
// "the deadline is what?" or "my GPU is what?", nor a term that names a value ("Capstone deadline
// is what?", "Minimum RAM for Isaac Sim is what?", found by an outside review): within `reach`
// words of the start.
const termFirstStart = (reach: number) =>
  String.raw`^(?!(?:the|my|our|your|this|that|it|there)\b)(?!(?:\S+ ){0,${reach}}(?:${NOT_A_DEFINITION}|${VALUE_WORD})\b)`;
const TERM_FIRST = String.raw`${termFirstStart(5)}${TERM}${CONTEXT} (?:is|are) what(?: exactly| then| really| again)?${BRIEFLY}$`;
const TERM_FIRST_KIND = String.raw`${termFirstStart(3)}${WORD}(?: ${WORD}){0,3} (?:is|are) what (?:kind|sort|type) of ${WORD}$`;
const KIND_BETWEEN = String.raw`^(?:${WORD}(?: ${WORD}){0,3} )?(?:is|are) (?:that|it|this|those|these|they) (?:a |an )?${WORD}(?: ${WORD})? (?:or|a|an) `;

// Each pattern runs on the normalised text (lowercase, no apostrophes, single spaces) so that the
// forms match whatever the punctuation and casing of the query.
const PATTERNS: Record<(typeof INTENT_CUES)[number], RegExp> = {
  definition: new RegExp(
    String.raw`(?<!\bby (?:what|which|any|all|no|some|other) )\b(?:define|definition|defined|meaning|means|mean|stand for|stands for|(?<!\ba )full form|acronym|abbreviation|terminology|what is meant by)\b|` +
      // "What does the word X refer to?", not "how does the robot know what my words refer to".
      String.raw`\bwhat (?:does|do) (?:${WORD} ){1,6}refers? to$|` +
      // "What does SLAM expand to?": what an acronym stands for.
      String.raw`\bwhat (?:does|do) (?:${WORD} ){1,4}expand (?:to|into)$|` +
      // "the term X", not "by the end of the term".
      String.raw`(?<!(?:end|start|rest|middle) of )\bthe term\b|` +
      // A term, then a bare ask for it: "Digital twin: one sentence, what is it?", "Managed
      // nodes in ROS 2: what are those?", "Go2 from Unitree, what kind of machine is that?".
      String.raw`\b(?:whats|wh?at (?:even )?(?:is|are|s|re|(?:kind|sort|type) of ${WORD} (?:is|are))) (?:it|they|those|these|that|(?:this|that) thing)(?: exactly| anyway| then| really| actually)?${BRIEFLY}$|` +
      `${TERM_FIRST}|${TERM_FIRST_KIND}|` +
      // "What's meant by whole-body control?", "what counts as synthetic data?".
      String.raw`\bwhat(?: is| s|s)? meant by\b|^what counts as (?!(?:a |an )?(?:late|done|passing|failing|enough|complete|finished|on time|good|decent|acceptable|bad|fair|valid|sufficient|reasonable|cheating|plagiarism|${NOT_A_DEFINITION})\b)(?:a |an )?${TERM}$|` +
      // A description, then the term for it: "what's the word for when a robot copies a
      // person?", "what's it called when…", "what do engineers call…", "is there a term for…".
      String.raw`\b${WHAT_IS} (?:the |a )?(?:(?:proper|right|correct|technical|official|fancy) )?(?:word|term|name) for\b|` +
      // ("what are they called?" alone asks the names of things just listed, not a term).
      String.raw`\b(?:whats|what (?:is|are|s|re)) (?:it|that|this|they|those) called (?:when|where|if)\b|` +
      String.raw`\bwhat (?:do|does|would|did) (?:you|we|they|people|engineers|roboticists|researchers|experts|the book|one) call\b|` +
      // "What is that thing where the robot maps and localises at once called?"
      String.raw`${OPENING}(?:${WHAT_IS}|${WHAT_ARE}) (?:that|the|this|those|these) (?:thing|things|idea|concept|technique|trick|method|approach|process|part|bit)s? .* called$|` +
      String.raw`\bis there (?:a|an) (?:(?:proper|technical|official) )?(?:word|term|name) for\b|` +
      // "Expand LiDAR for me", "SLAM is short for what?": asks what an acronym stands for.
      String.raw`^(?:please |can you |could you )?expand (?:the )?${WORD}|\bshort for\b|` +
      // Not "not sure what the best GPU is": which one to pick, as after "what is a" (NOT_A_DEFINITION).
      // "Remind me what DARwIn-OP is", "explain briefly what Isaac Gym is": a term, not "the X"
      // or "my X", which ask for a value ("remind me what the deadline is").
      String.raw`\b(?:remind me|forgot|forget|recall|explain (?:briefly|quickly|simply))(?: again)? what (?!(?:the|my|our|your|their|his|her|its|this|that)\b)(?!(?:(?:a|an) )?${NOT_A_DEFINITION}\b)(?:a |an )?[\w.+/-]+(?: [\w.+/-]+){0,2} (?:is|are)${BRIEFLY}$|` +
      String.raw`\b(?:tell me|know|explain|wondering|idea|idk|dunno|sure) what (?!(?:(?:a|an|the) )?${NOT_A_DEFINITION}\b)(?:a |an |the )?[\w.+/-]+(?: [\w.+/-]+){0,2} (?:is|are)${BRIEFLY}$|` +
      // The same in the order of a direct question, as many non-native speakers write it: "can you
      // tell me what is a series elastic actuator?", with the direct form's exclusions (not "… what
      // is the deadline", "… what is covered in week 3", "… what is cheaper, X or Y").
      String.raw`\b(?:tell me|say|know|explain|wondering|idea|idk|dunno|sure|remind me) what (?:is|are) (?!(?:in|on|for|about|inside|covered|included|there|it|this|that|the|my|our|your)\b)(?!(?:(?:a|an) )?${NOT_A_DEFINITION}\b)(?![a-z]+ed\b)(?![a-z]+er\b,? ${WORD}(?: ${WORD})? (?:or|than)\b)(?:(?:a|an) )?${TERM}${CONTEXT}(?<! about| like)${BRIEFLY}$|` +
      // "What is (a) X (in Y)?": not "what is in X", "what is it", "what is X about/like".
      String.raw`${OPENING}${WHAT_IS} (?!(?:in|on|for|about|inside|covered|included|there|it|this|that|the)\b)(?!(?:(?:a|an) )?${NOT_A_DEFINITION}\b)(?:(?:a|an) )?${TERM}${CONTEXT}(?<! about| like)${CLOSING}|` +
      // "What is the X?" names one thing ("the Unitree Go2"), also placed ("the Jacobian matrix in
      // robot kinematics"); "the role of …" or "the X for Y" does not.
      String.raw`${OPENING}${WHAT_IS} the (?!(?:best|cheapest|difference|role|purpose|scope|point|cost|price|plan|goal|aim|deadline|timeline|status)\b)${TERM}(?<! about| like| for| of)${THE_CONTEXT}${CLOSING}|` +
      // "What are X?" defines a plural term; "what are the X" asks for a list (phases, deliverables).
      String.raw`${OPENING}${WHAT_ARE} (?!(?:the|there|some|my|our|your|in|on|they|those|these|them|we|you)\b)(?!${NOT_A_DEFINITION}\b)${TERM}${CONTEXT}(?<! about| like)${CLOSING}|` +
      // A term, then what kind of thing it is, between alternatives: "Omniverse, is that a
      // program or a company?", "Orin Nano: is it a board, a chip, a kit?" (not "is that a
      // hardware problem?", which asks no kind).
      KIND_BETWEEN,
  ),
  explanation: new RegExp(
    String.raw`\b(?:how (?:does|do|did|is|are|can|could|would)(?! ${CHOOSER} ${CHOOSE}\b)|(?:tell|show) me (?:how|why)|explain|explanation|why|walk me through|walkthrough|break down|intuition|describe|difference between|differ|in simple terms|understand|works?)\b`,
  ),
  specs: new RegExp(
    String.raw`\b(?:specs?|specifications?|requirements?|required|minimum|recommended|how much (?:ram|memory|vram|power|storage|does|do|is)|(?:do|does) (?:i|we|it|you) need|cost|costs|price|prices|pricing|budget|cheap|cheaper|cheapest|buy|purchase|afford|per hour|dollars?|euros?|money|spend|compare|comparison|vs|versus|enough|draws?|tops|gb|tb)\b`,
  ),
  guidance: new RegExp(
    String.raw`\b(?:should (?:i|we)|how should|how (?:do|can|could|would|to) (?:${CHOOSER} )?${CHOOSE}\b|recommend|plan|planning|sequence|steps?|milestones?|deliverables?|deadline|due|graded|grading|rubric|submit|hand in|checklist|timeline|organi[sz]e|split|phases?|roadmap|tips|advice|suggest)\b`,
  ),
  troubleshooting: new RegExp(
    String.raw`\b(?:debug|debugging|troubleshoot|fix|error|errors|fails?|failing|failed|crash(?:es|ing)?|doesnt|does not|dont|wont|cant|never|keeps|broken|lags?|lagging|drift(?:s|ing)?|stuck|wrong|not working|gets lost|falls? over)\b`,
  ),
};

/**
 * The words a match of each cue's expression can start with: every alternative of it starts a
 * whole word with one of these, except the definition's alternatives anchored at the text's
 * start (`^`), which are tried at the first word whatever it is. A match starts where a word
 * does, so the earliest match of an expression is found by trying it (sticky) only at the words
 * listed for it, earliest first, instead of at every character of the text ("are" starts only
 * anchored forms). The tests check the places against the expressions' own search.
 */
const CUE_STARTS: Record<(typeof INTENT_CUES)[number], string> = {
  definition:
    'define definition defined meaning means mean stand stands full acronym abbreviation terminology ' +
    'what whats wat wats the is short remind forgot forget recall explain tell know wondering idea idk ' +
    'dunno sure say',
  explanation:
    'how tell show explain explanation why walk walkthrough break intuition describe difference ' +
    'differ in understand work works',
  specs:
    'spec specs specification specifications requirement requirements required minimum ' +
    'recommended how do does cost costs price prices pricing budget cheap cheaper cheapest buy ' +
    'purchase afford per dollar dollars euro euros money spend compare comparison vs versus ' +
    'enough draw draws tops gb tb',
  guidance:
    'should how recommend plan planning sequence step steps milestone milestones deliverable ' +
    'deliverables deadline due graded grading rubric submit hand checklist timeline organise ' +
    'organize split phase phases roadmap tips advice suggest',
  troubleshooting:
    'debug debugging troubleshoot fix error errors fail fails failing failed crash crashes ' +
    'crashing doesnt does dont wont cant never keeps broken lag lags lagging drift drifts ' +
    'drifting stuck wrong not gets fall falls',
};
/**
 * Start words of {@link CUE_STARTS} that start a cue's alternatives only before certain words:
 * "the term", "is there a word for", "how does", "how much", "how should", "do I need", "does
 * not". At such a word followed by another, the cue's expression is not tried.
 */
const CUE_NEXT_WORDS: Partial<Record<(typeof INTENT_CUES)[number], Record<string, string>>> = {
  definition: { the: 'term', is: 'there' },
  explanation: { how: 'does do did is are can could would' },
  specs: { how: 'much', do: 'i we it you', does: 'i we it you' },
  guidance: { how: 'should do can could would to' },
  troubleshooting: { does: 'not' },
};

/** The cues a word may start (by bit: 1 << index in INTENT_CUES), and what must follow it. */
interface CueStart {
  bits: number;
  /** By cue index: the words that must come next for the cue to start here, if only some. */
  next: Array<ReadonlySet<string> | undefined> | undefined;
}
const CUE_BITS = new Map<string, CueStart>();
INTENT_CUES.forEach((cue, bit) => {
  for (const word of CUE_STARTS[cue].split(' ')) {
    let start = CUE_BITS.get(word);
    if (!start) CUE_BITS.set(word, (start = { bits: 0, next: undefined }));
    start.bits |= 1 << bit;
    const next = CUE_NEXT_WORDS[cue]?.[word];
    if (next !== undefined) (start.next ??= [])[bit] = new Set(next.split(' '));
  }
});

/** The cues `words[i]` may start, given the word after it. */
function startsAt(words: readonly string[], i: number): number {
  const start = CUE_BITS.get(words[i]!);
  if (start === undefined) return 0;
  let bits = start.bits;
  if (start.next === undefined) return bits;
  const following = words[i + 1] ?? '';
  for (let c = 0; c < start.next.length; c += 1)
    if (start.next[c]?.has(following) === false) bits &= ~(1 << c);
  return bits;
}
const DEFINITION = INTENT_CUES.indexOf('definition');
// The cues with an alternative anchored at the text's start.
const ANCHORED_BITS = 1 << DEFINITION;
const ALL_BITS = (1 << INTENT_CUES.length) - 1;
// Each expression sticky: tried at one place only.
const AT_PLACE = INTENT_CUES.map((cue) => new RegExp(PATTERNS[cue].source, 'y'));

/** The definition's expression, sticky, with each of `parts` (alternatives of it) never matching. */
function definitionWithout(...parts: string[]): RegExp {
  let source = PATTERNS.definition.source;
  // Each part as an expression's source writes it ("/" escaped), as the definition's does.
  for (const part of parts) source = source.replace(new RegExp(part).source, '(?!)');
  return new RegExp(source, 'y');
}
// The definition's expression for texts that cannot match TERM_FIRST, KIND_BETWEEN or either:
// those two are most of its cost at a question's first word, and most questions have neither
// "is what" nor "is that/it/this/they" (a never-matching "(?!)" stands in each one's place).
const DEFINITION_AT = [
  AT_PLACE[DEFINITION]!,
  definitionWithout(TERM_FIRST),
  definitionWithout(KIND_BETWEEN),
  definitionWithout(TERM_FIRST, KIND_BETWEEN),
];
const WITHOUT_ANY_START = DEFINITION_AT[3]!;

// The first words the definition's anchored alternatives other than TERM_FIRST, TERM_FIRST_KIND
// and KIND_BETWEEN open with (OPENING, then WHAT_IS or WHAT_ARE; "what counts as"; "please / can
// you / could you expand"). With those three left out (see definitionAt), a text opening with
// another word can match at its start only by an alternative that a listed word starts.
const ANCHORED_OPENERS = new Set(
  'so and ok hey um sorry quick also what whats wat wats please can could expand'.split(' '),
);

// The words after "is" or "are" that KIND_BETWEEN asks about ("is that a …", "are they …").
const POINTED_AT = new Set(['that', 'it', 'this', 'those', 'these', 'they']);

/** The definition's expression to try on `words`: without the alternatives they cannot match. */
function definitionAt(words: readonly string[]): RegExp {
  // What each alternative's words must hold: a word, then "is what" or "are what" (TERM_FIRST);
  // "is" or "are" before "that", "it", "this", "those", "these" or "they" (KIND_BETWEEN).
  let termFirst = false;
  let kindBetween = false;
  for (let i = 0; i + 1 < words.length; i += 1) {
    const word = words[i]!;
    if (word !== 'is' && word !== 'are') continue;
    const next = words[i + 1]!;
    if (next === 'what') termFirst ||= i > 0;
    else if (POINTED_AT.has(next)) kindBetween = true;
  }
  return DEFINITION_AT[(termFirst ? 0 : 1) + (kindBetween ? 0 : 2)]!;
}

// detectIntentCues' working state (detection is synchronous): where each cue matched (-1 for
// none), by its index in INTENT_CUES; then the position of each cue listed so far, index for
// index with its list of cues.
const MATCHED_AT: number[] = INTENT_CUES.map(() => -1);
const FOUND_AT: number[] = [];

/**
 * Where each cue's expression first matches `joined` (`words` joined by single spaces), into
 * MATCHED_AT: the same places as searching the text with each, tried only where a word may start
 * a match (see {@link CUE_STARTS}).
 */
function findCues(words: readonly string[], joined: string): void {
  for (let c = 0; c < MATCHED_AT.length; c += 1) MATCHED_AT[c] = -1;
  let pending = ALL_BITS;
  let at = 0;
  const definition = definitionAt(words);
  // The anchored alternatives are tried at the first word only when one of them can match there.
  const anchored = definition !== WITHOUT_ANY_START || ANCHORED_OPENERS.has(words[0] ?? '');
  for (let i = 0; i < words.length && pending !== 0; i += 1) {
    const word = words[i]!;
    let starts = startsAt(words, i) | (i === 0 && anchored ? ANCHORED_BITS : 0);
    starts &= pending;
    for (let c = 0; starts !== 0; c += 1, starts >>= 1) {
      if ((starts & 1) === 0) continue;
      const pattern = c === DEFINITION ? definition : AT_PLACE[c]!;
      pattern.lastIndex = at;
      if (!pattern.test(joined)) continue;
      MATCHED_AT[c] = at;
      pending &= ~(1 << c);
    }
    at += word.length + 1;
  }
}

/**
 * Finds the question forms in `words` (normalised words of the query); `joined` is the words
 * joined by single spaces, when the caller has it.
 *
 * @example
 * detectIntentCues(['what', 'is', 'a', 'topic']).intent; // 'definition'
 */
export function detectIntentCues(
  words: readonly string[],
  joined: string = words.join(' '),
): IntentCues {
  findCues(words, joined);
  // Earliest first, ties in the order of INTENT_CUES (as a stable sort by position gives them):
  // each cue found is moved up past those found later in the text.
  const cues: Array<(typeof INTENT_CUES)[number]> = [];
  let definitionFirst = false;
  for (let c = 0; c < INTENT_CUES.length; c += 1) {
    const cue = INTENT_CUES[c]!;
    const at = MATCHED_AT[c]!;
    if (at < 0) continue;
    if (cue === 'definition' && at === 0) definitionFirst = true;
    let slot = cues.length;
    cues.push(cue);
    while (slot > 0 && at < FOUND_AT[slot - 1]!) {
      cues[slot] = cues[slot - 1]!;
      FOUND_AT[slot] = FOUND_AT[slot - 1]!;
      slot -= 1;
    }
    cues[slot] = cue;
    FOUND_AT[slot] = at;
  }
  // "What is X?" and "Define X" name a definition even when a later word ("work") looks explanatory.
  // Only a definition that opens the question: "How does the robot know which cup you mean?" opens
  // with an explanation, and "mean" later does not make it a definition.
  const intent: IntentCue = definitionFirst ? 'definition' : (cues[0] ?? 'general');
  return { cues, intent };
}

/**
 * Where `cue` is found in `words` as {@link detectIntentCues} finds it, and where searching their
 * text with the cue's expression finds it (-1: nowhere): always the same place. For tests.
 *
 * @example
 * cuePlaces('definition', ['so', 'what', 'is', 'a', 'topic']); // { found: 0, searched: 0 }
 */
export function cuePlaces(
  cue: (typeof INTENT_CUES)[number],
  words: readonly string[],
): { found: number; searched: number } {
  const joined = words.join(' ');
  findCues(words, joined);
  return { found: MATCHED_AT[INTENT_CUES.indexOf(cue)]!, searched: joined.search(PATTERNS[cue]) };
}

// A bare term as the whole question: one word written alone ("URDF?", "tf2", "Jacobian?"), or a
// term of up to four words set equal to a question mark ("SLAM = ?", "Point cloud =??", "IMU: ?",
// with a parenthesis after it: "(the sensor, I mean)"). Students type these to ask what a term is.
// Two words without "= ?" are not bare terms: "Capstone milestones" (R10) asks for the milestones.
const BARE_TERM =
  /^\s*["'“‘]?[A-Za-z][\w.+/-]*["'”’]?\s*\?*\s*$|^\s*[\w.+/-]+(?:\s+[\w.+/-]+){0,3}\s*[=:]\s*\?+\s*(?:\([^)]*\)\s*)?$/;

// What BARE_TERM needs, found cheaply first (most questions have neither, and are not tried
// against it word by word): a term set equal to "?" has "=" or ":"; a term alone has nothing
// after a space but spaces and question marks ("URDF ?").
const TERM_SET_EQUAL = /[=:]/;
const SECOND_WORD = /\S\s+[^\s?]/;

/**
 * True when the whole question is a bare term, asked for as a definition (see `BARE_TERM`).
 *
 * @example
 * isBareTerm('SLAM = ?'); // true
 * isBareTerm('Capstone milestones'); // false
 */
export const isBareTerm = (query: string): boolean =>
  (TERM_SET_EQUAL.test(query) || !SECOND_WORD.test(query)) && BARE_TERM.test(query);

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
    // a request for a list or a summary ("List the weeks of the course", "Name the …")
    'list enumerate outline summarize summarise summary name tell show give ' +
    // specs
    'spec specs specification specifications requirement requirements required require requires ' +
    'minimum maximum recommended cost costs price prices pricing budget cheap cheaper cheapest ' +
    'expensive buy buying bought purchase afford need needed needs enough compare comparison versus vs ' +
    // a sum of money asked for: the subject is what it pays for (a currency named is a subject)
    'money spend spending ' +
    'better best good great ' +
    // guidance
    'should recommend recommendation plan planning sequence step steps tips tip advice suggest ' +
    'suggestion way ways start begin approach help ' +
    // troubleshooting
    'debug debugging troubleshoot fix fixing fixed error errors fail fails failing failed problem ' +
    'problems issue issues wrong broken ' +
    // tone and filler
    'thing things stuff question questions kind sort lot bit quick quickly short brief briefly ' +
    'sentence line hey hi hello thanks thank okay ok sure maybe please sorry ' +
    // interjections that open a follow-up ("wait, what…", "fine, but…")
    'wait alright hmm hm um uh erm huh oh anyway btw ngl tbh lol bruh idk dunno ' +
    // when and for how long it is asked ("renting it for a weekend"), not what it is about
    'weekend weekends tonight today tomorrow yesterday overnight'
  )
    .split(/\s+/)
    .filter(Boolean),
);
