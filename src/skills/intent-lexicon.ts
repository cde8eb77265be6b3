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
export const INTENT_LEXICON: ReadonlyArray<{ words: string; means: string; strength: number }> = [
  // Design before code.
  {
    words: 'architect architecture architectural blueprint',
    means: 'architect design',
    strength: 0.9,
  },
  { words: 'sketch draft outline proposal layout', means: 'design propose', strength: 0.9 },
  {
    words: 'options alternatives tradeoffs trade-offs versus approaches',
    means: 'compare evaluate',
    strength: 0.6,
  },
  { words: 'recommend boundaries schema components', means: 'design evaluate', strength: 0.4 },
  // Building and changing behaviour.
  {
    words: 'create support endpoint feature script flag command',
    means: 'implement add build',
    strength: 0.6,
  },
  {
    words: 'bug bugs crash crashes crashing broken fails failing failure failed regression',
    means: 'fix debug',
    strength: 0.9,
  },
  { words: 'error errors wrong complains red issue problem', means: 'fix debug', strength: 0.5 },
  { words: 'make handle include instead', means: 'change implement', strength: 0.4 },
  // Restructuring without changing behaviour.
  { words: 'clean cleanup tidy messy mess', means: 'clean refactor', strength: 0.9 },
  {
    words: 'reorganize reorganise restructure rearrange mirror',
    means: 'reorganise refactor',
    strength: 0.9,
  },
  {
    words: 'duplicated duplicate duplication copies repeated',
    means: 'deduplicate',
    strength: 0.9,
  },
  { words: 'readable clearer confusing unreadable', means: 'simplify refactor', strength: 0.9 },
  {
    words: 'decompose separate apart modularize modularise',
    means: 'split refactor',
    strength: 0.8,
  },
  { words: 'constants dead unused', means: 'refactor clean', strength: 0.6 },
  { words: 'move', means: 'refactor', strength: 0.3 },
];

/**
 * Phrases that say which stage of work is meant, whatever the verbs: "before any code" is design,
 * "without changing what it does" is a refactoring, "doesn't work" is a bug.
 */
export const INTENT_PHRASES: ReadonlyArray<{ pattern: RegExp; means: string; strength: number }> = [
  {
    pattern:
      /\b(before (any|we|anyone|writing|implementing|coding|starting)|no code yet|write (it|this) up|think through)\b/i,
    means: 'plan design',
    strength: 0.9,
  },
  {
    pattern:
      /\b(without (chang|alter|break)\w*|keep(ing)? (all )?(the )?(tests?|behaviou?r)\b|same behaviou?r)/i,
    means: 'refactor restructure',
    strength: 0.9,
  },
  {
    pattern: /\b(does(n't| not)? (nothing|work)|not working|sort it out|look into|make it pass)\b/i,
    means: 'fix debug',
    strength: 0.9,
  },
];

/** A request that asks for an explanation rather than work: lexicon evidence counts for half. */
export const QUESTION_OPENING =
  /^\s*(what|why|who|when|where|which|how (do|does|is|are|can)|explain|tell me)\b/i;
