/**
 * Everyday words for the kinds of coding work skill descriptions name, each mapped to the words
 * such descriptions use ("crash" → fix, debug; "tidy" → clean). Request words are expanded with
 * them before matching, so "the build is red" can reach a skill described as "fix bugs" without
 * the skill's author listing every synonym. `strength` is how sure the mapping is: a strong word
 * alone can activate a skill, a weak one only adds to other evidence.
 *
 * Written from general software vocabulary and tuned on the `tune` half of
 * eval/skills-blind.jsonl only; the `heldout` half measures it.
 */
export const INTENT_LEXICON: ReadonlyArray<{
  words: string;
  means: string;
  strength: number;
  /** The words name a subject ("architecture", "feature"), not an activity ("crash", "tidy"). */
  topic?: boolean;
  /** Only as the head of a clause: "Log a warning" asks for behaviour, "the log file" does not. */
  headOnly?: boolean;
}> = [
  // Design before code.
  {
    words: 'architect architecture architectural blueprint',
    means: 'architect design',
    strength: 0.9,
    topic: true,
  },
  { words: 'sketch draft outline proposal layout', means: 'design propose', strength: 0.9 },
  {
    words: 'options alternatives tradeoffs trade-offs versus approaches',
    means: 'compare evaluate',
    strength: 0.6,
  },
  {
    words: 'recommend boundaries schema components',
    means: 'design evaluate',
    strength: 0.4,
    topic: true,
  },
  { words: 'strategy rfc spec specification adr', means: 'design plan', strength: 0.8 },
  { words: 'weigh pros cons suggest', means: 'compare evaluate propose', strength: 0.7 },
  // Building and changing behaviour.
  {
    words: 'create support integrate wire hook',
    means: 'implement add build change',
    strength: 0.9,
  },
  { words: 'decide choose pick', means: 'compare evaluate', strength: 0.8 },
  {
    words: 'endpoint feature script flag command option',
    means: 'implement add build',
    strength: 0.35,
    topic: true,
  },
  {
    words: 'increase decrease raise lower bump reduce extend enable disable',
    means: 'change',
    strength: 0.8,
  },
  {
    words: 'bug bugs crash crashes crashing broken fails failing failure failed regression',
    means: 'fix debug',
    strength: 0.9,
  },
  { words: 'error errors wrong complains red issue problem', means: 'fix debug', strength: 0.5 },
  // What a bug report says the program does wrong ("the export drops rows").
  {
    words: 'drops loses skips swallows truncates corrupts mangles garbles',
    means: 'fix debug',
    strength: 0.6,
  },
  {
    words:
      'exception exceptions traceback hang hangs freezes leak leaks incorrect incorrectly flaky intermittent intermittently sometimes',
    means: 'fix debug',
    strength: 0.7,
  },
  { words: 'make handle include instead', means: 'change implement', strength: 0.4 },
  // Moving code to another platform or version changes what it runs on.
  { words: 'port migrate upgrade downgrade', means: 'change implement', strength: 0.7 },
  { words: 'resolve solve', means: 'fix debug', strength: 0.6 },
  {
    words: 'patch hotfix vulnerability vulnerabilities xss injection',
    means: 'fix debug',
    strength: 0.8,
  },
  {
    // A clause that opens with what the program should do asks for that behaviour.
    words: 'log print emit validate reject redirect retry cache persist expose',
    means: 'change implement',
    strength: 0.7,
    headOnly: true,
  },
  { words: 'model specify', means: 'design plan', strength: 0.6, headOnly: true },
  // Restructuring without changing behaviour.
  { words: 'clean cleanup tidy messy mess', means: 'clean refactor', strength: 0.9 },
  {
    words: 'reorganize reorganise restructure rearrange mirror reorder regroup',
    means: 'reorganise refactor',
    strength: 0.9,
  },
  {
    words: 'duplicated duplicate duplication copies copied copy-pasted repeated dedupe dedup',
    means: 'deduplicate',
    strength: 0.9,
  },
  { words: 'readable clearer confusing unreadable', means: 'simplify refactor', strength: 0.9 },
  {
    words: 'decompose apart modularize modularise',
    means: 'split refactor',
    strength: 0.8,
  },
  { words: 'constants dead unused magic', means: 'refactor clean', strength: 0.6 },
  { words: 'flatten nested polymorphism', means: 'simplify refactor', strength: 0.8 },
  { words: 'move', means: 'refactor', strength: 0.3 },
];

/**
 * Phrases that say which stage of work is meant, whatever the verbs: "before any code" is design,
 * "without changing what it does" is a refactoring, "doesn't work" is a bug.
 */
export const INTENT_PHRASES: ReadonlyArray<{ pattern: RegExp; means: string; strength: number }> = [
  {
    pattern: /\b(before (any|we|anyone|\w+ing)|no code yet|write (it|this) up|think through)\b/i,
    means: 'plan design',
    strength: 0.9,
  },
  {
    pattern:
      /\b((behaviou?r|output|api|results?|callers?|functionality)s? (must|should|will|may|can) (not|never) (change|differ|break)|without (chang|alter|break|affect)\w*|keep(ing)? (all )?(the )?(tests?|behaviou?r)\b|same behaviou?r|nothing( else)? (should|must|may|will|is to) change|no (behaviou?r(al)?|functional|visible) changes?|(behaviou?r|output|api|result|response|functionality)s? ((must|should|will|has to|needs to|have to) )?(stays?|remains?|is|are|be) (the same|identical|unchanged|intact)|keeping (the |its |their )?([\w-]+ )?(output|behaviou?r|results?|api)s? (identical|the same|unchanged))/i,
    means: 'refactor restructure',
    strength: 0.9,
  },
  {
    pattern:
      /\bbreak (up )?([\w-]+ ){0,4}(into|up|apart)\b|\binto (smaller|separate|several|multiple|focused) [\w-]+s\b/i,
    means: 'split refactor',
    strength: 0.9,
  },
  { pattern: /\bcome up with\b/i, means: 'design propose', strength: 0.9 },
  {
    // Follow-ups of a rename or a move, not new behaviour.
    pattern:
      /\bupdat\w* (the |its |their |all )?(call ?sites|callers|imports|references|usages|uses)\b/i,
    means: 'rename refactor',
    strength: 0.8,
  },
  {
    pattern:
      /\b(reduce|lower|loosen) (the )?(coupling|complexity|duplication|nesting|indirection)\b|\bdecouple\b/i,
    means: 'simplify refactor',
    strength: 0.9,
  },
  {
    // A named error or exception type ("the TypeError", "a NullPointerException") is a bug.
    pattern: /\b[A-Z]\w*(Error|Exception)\b/,
    means: 'fix debug',
    strength: 0.8,
  },
  {
    // Moving code into one place of its own: "into one helper", "into its own function".
    pattern:
      /\b(pull|move|put|gather|factor|consolidate|merge|combine|fold)\b[^.;]*\binto (one|a single|a shared|a common|its own|their own|a separate|separate|a dedicated)\b|\bfactor (it |them |this |that |these |those )?out\b/i,
    means: 'extract refactor',
    strength: 0.8,
  },
  {
    // "Make the sidebar collapsible", "make the import faster": a change of behaviour.
    pattern:
      /^\s*(please |can you |could you )?make (the |it |this |our |all )?([\w-]+ ){0,3}(\w+(able|ible)|faster|slower|smaller|bigger|larger|shorter|longer|optional|required|visible|hidden|responsive|configurable|case-insensitive|(thread|type)-safe)\b/i,
    means: 'change implement',
    strength: 0.8,
  },
  {
    pattern:
      /\b(lay|map|flesh|spell|sketch|plan) out\b|\bthink (it |this )?through\b|\bwork out (the|a|an|how|which|what|our)\b/i,
    means: 'design plan',
    strength: 0.8,
  },
  {
    pattern: /\b(figure|work|find) out why\b|\bhunt down\b|\btrack down\b/i,
    means: 'fix debug',
    strength: 0.8,
  },
  {
    pattern: /\bhow\b[^.?]{0,60}\bshould (work|behave|look|fit|interact|communicate|talk)\b/i,
    means: 'design plan',
    strength: 0.9,
  },
  {
    // A statement of how the code should behave asks for that behaviour ("Errors should be logged").
    pattern:
      /^(?!\s*(what|how|which|why|should|when|where|who|is|are|do|does|can)\b)[^?]*(?<!\bhow\b[^.?]*)\b(?<!\b(we|i|you) )(should|must|needs? to)\s+(now\s+|also\s+|always\s+|never\s+|just\s+)?(?!change\b|stay\b|remain\b|look\b|be (the same|identical|unchanged)\b)[a-z]+\b[^?]*$/i,
    means: 'change implement',
    strength: 0.7,
  },
  {
    pattern: /\beasier to (follow|read|understand|maintain|reason about|test)\b|\bmore readable\b/i,
    means: 'simplify refactor',
    strength: 0.9,
  },
  {
    pattern:
      /\bwhat (should|would|could) (the |a |an )?.{0,60}look like\b|\bweigh (them|it|these|those|the options)? ?up\b|\bpros and cons\b|\bfits? (our|my|the) needs\b/i,
    means: 'design evaluate',
    strength: 0.9,
  },
  {
    pattern:
      /\b(write|draft|prepare|put together) (up )?(an?|the)? ?([\w-]+ ){0,2}(rfc|spec|specification|adr|proposal)\b/i,
    means: 'design plan',
    strength: 1,
  },
  {
    pattern:
      /\b(write|create|add) (me )?(an?|the|some|new)? ?([\w-]+ )?(functions?|methods?|class|script|component|parser|endpoint|handler)\b/i,
    means: 'implement add',
    strength: 0.9,
  },
  {
    pattern:
      /^\s*(let|allow|enable) (the )?(users?|people|admins?|customers?|clients?|visitors?)\b/i,
    means: 'implement add',
    strength: 0.9,
  },
  {
    pattern:
      /\bmake (the |it |them |this |our )?([\w-]+ ){0,2}(print|show|display|return|accept|log|emit|use|ignore|skip|retry|support|handle|work|respect|read|write|send)\b/i,
    means: 'change implement',
    strength: 0.9,
  },
  {
    pattern:
      /\b(gets?|got|returns?|returning|throws?|gives?|answers?) (an? )?[45]\d\d\b|\boff by (one|a|an)\b|\b(returns?|shows?|gives?|prints?) (no|nothing|empty|the wrong|wrong|null|undefined|nan)\b/i,
    means: 'fix debug',
    strength: 0.8,
  },
  {
    pattern: /\b(does(n't| not)? (nothing|work)|not working|sort it out|look into|make it pass)\b/i,
    means: 'fix debug',
    strength: 0.9,
  },
];

/**
 * A request that asks for an explanation rather than work: lexicon evidence counts for less (when
 * the question is all there is; "Which one fits? Weigh them up." asks for work). "When" and
 * "how" open a question only with an auxiliary ("when does it run"): "When the disk is full the
 * upload fails" is a conditional, not a question.
 */
export const QUESTION_OPENING =
  /^\s*((what|why|who|when|where|which|how)('s|\s+(is|are|was|were|do|does|did|can|could|should|would|will|has|have)\b)|(what|why|who|which)\b|explain|tell me|summari[sz]e|list|show me|translate)\b/i;

/**
 * A request to write something that is not code (an email, a cover letter), or to recommend
 * something that is not code (a book, a podcast): words such as "draft", "recommend" or
 * "developer" in it say little about a coding skill, so its evidence counts for a quarter.
 */
export const NOT_CODE =
  /\b(write|draft|compose|send|prepare)\b[^.?]{0,30}\b(e-?mails?|letters?|announcements?|tweets?|(blog |linkedin )?posts?|poems?|haikus?|jokes?|essays?|slides?|speech)\b|\b(recommend|suggest)\b[^.?]{0,30}\b(books?|podcasts?|courses?|movies?|films?|songs?|music|videos?|restaurants?|games?)\b/i;
