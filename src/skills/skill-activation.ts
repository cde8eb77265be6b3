import { CohortError } from '../errors/index.js';
import { toolRestriction, type PermissionCall, type PermissionContext } from '../tools/index.js';
import { analyze, inflectionBaseForms } from '../retrieval/index.js';
import { INTENT_LEXICON, INTENT_PHRASES, NOT_CODE, QUESTION_OPENING } from './intent-lexicon.js';
import { readRequest } from './request-reading.js';
import { correctSpelling, englishLexicon } from './request-spelling.js';
import type { Skill } from './skill-file.js';

/** Default confidence a description match needs to activate a skill on its own. */
export const SKILL_ACTIVATION_THRESHOLD = 0.4;
/** The best skill must lead the runner-up by this much, or the match is ambiguous. */
export const SKILL_ACTIVATION_MARGIN = 0.1;
/** Evidence of a description word no other skill uses; shared words count for less. */
export const DESCRIPTION_TERM_WEIGHT = 0.5;
/** Evidence of the skill's own name in the request ("refactor this"). */
export const NAME_TERM_WEIGHT = 0.6;
/** Evidence of a request that opens with a verb of the skill's description ("Split the…"). */
export const LEADING_TERM_WEIGHT = 0.8;

/** Request words that say nothing about which skill is needed, beyond ordinary stop words. */
const SKILL_STOPWORDS: ReadonlySet<string> = new Set(
  'please use used using asked ask want need make let get data'.split(' '),
);

/** Content-word stems of `text`, analysed as the retrieval index does; lone numbers dropped. */
function terms(text: string): Set<string> {
  return new Set(analyze(text, SKILL_STOPWORDS).filter((term) => !/^\d+$/.test(term)));
}

/** Words of `text`, lowercased, for spelling checks. */
const words = (text: string) => text.toLowerCase().match(/[a-z][a-z-]*/g) ?? [];

/** The lexicon with its words and meanings analysed once. */
const LEXICON = INTENT_LEXICON.map((entry) => ({
  words: new Set(words(entry.words)),
  means: [...terms(entry.means)],
  strength: entry.strength,
  topic: entry.topic === true,
  headOnly: entry.headOnly === true,
}));

/** One piece of evidence: the stems it points to, each with how sure the pointing is. */
type Evidence = Map<string, number>;

/** How much evidence counts when the request asks for an activity no skill names ("review this", "give me an estimate"). */
export const UNCOVERED_ACTIVITY_DAMP = 0.4;
/** How much evidence counts in a request that only asks a question ("how does X work?"). */
export const QUESTION_DAMP = 0.35;
/** Evidence for planning from a question about what the project should do ("X or Y for us?"). */
export const DECISION_STRENGTH = 0.7;
/** The actions a constraint clause says will not happen ("no functional changes" → change). */
const KEPT_ACTIONS = /\b(chang|alter|break|affect|modif)\w*/gi;
/** How much a word other than a head counts when a head reaches some skill's words. */
export const HEAD_DOMINANCE = 0.75;
/** Lexicon entries this sure name the kind of work on their own ("copies" → deduplicate). */
const STRONG_LEXICON = 0.8;
/** Verbs of making, whose object says what work is meant ("write an RFC", "create a test"). */
const MAKING_VERBS = new Set([
  'write',
  'create',
  'draft',
  'prepare',
  'produce',
  'compose',
  'put together',
  'draw up',
  'write up',
  'lay down',
  'set out',
  'come up with',
]);
/** How sure a head verb's WordNet synonym (first sense, then second) or hypernym points. */
const WORDNET_SYNONYM = [0.7, 0.5];
const WORDNET_HYPERNYM = 0.6;

/**
 * The stems a head word points to: its own, those of {@link INTENT_LEXICON} entries it is in, and
 * those of its WordNet synonyms (first two senses) and hypernyms (first sense) that some skill's
 * description uses ("repair" → fix, "troubleshoot" → fix, "redesign" → design).
 */
function headEvidence(head: string, known: ReadonlySet<string>, verb: boolean): Evidence {
  const evidence: Evidence = new Map();
  const add = (term: string, strength: number) => {
    if (strength > (evidence.get(term) ?? 0)) evidence.set(term, strength);
  };
  for (const term of terms(head)) add(term, 1);
  // A phrasal verb's verb carries its sense in the lexicon ("hook up" → hook, "clean up" → clean).
  const verbWord = words(head)[0] ?? head;
  for (const entry of LEXICON)
    if (entry.words.has(verbWord)) for (const term of entry.means) add(term, entry.strength);
  if (verb) {
    englishLexicon()
      .verbSenses(head, WORDNET_SYNONYM.length)
      .forEach((sense, index) => {
        // Single-word lemmas only: "change over" is not "change".
        for (const lemma of sense.words)
          if (!lemma.includes(' '))
            for (const term of terms(lemma))
              if (known.has(term)) add(term, WORDNET_SYNONYM[index] ?? 0);
        if (index === 0)
          for (const lemma of sense.hypernyms)
            if (!lemma.includes(' '))
              for (const term of terms(lemma)) if (known.has(term)) add(term, WORDNET_HYPERNYM);
      });
  }
  for (const term of evidence.keys()) if (!known.has(term)) evidence.delete(term);
  return evidence;
}

/**
 * The first place `word` stands alone in a text, any letter case. The word is the request's own
 * (the head noun of "I need a fix(" is "fix("): matched as text, never as a regular expression.
 */
const wholeWord = (word: string) =>
  new RegExp(`(?<!\\w)${word.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?!\\w)`, 'i');

/**
 * The evidence a request gives, as separate pieces: each word of the clauses that ask for
 * something (strength 1), each {@link INTENT_LEXICON} entry and {@link INTENT_PHRASES} phrase it
 * hits (the words they map to), and the head of each asking clause with its WordNet neighbours.
 * A piece counts once however many of a skill's words it points to: "feature" → implement, add,
 * build is one reason to pick the developer, not three. `heads` collects the stems the heads
 * point to: they weigh as much as a request's opening verb.
 */
function requestEvidence(
  request: string,
  known: ReadonlySet<string>,
  isVerb: (word: string) => boolean,
  heads: Set<string>,
): Evidence[] {
  const pieces: Evidence[] = [];
  const reading = readRequest(request, { isVerb });
  // The asking clauses without their heads: a head is its own piece of evidence, not two.
  const asked = reading.clauses
    .filter((clause) => clause.role === 'asks')
    .map((clause) => (clause.head ? clause.text.replace(wholeWord(clause.head), ' ') : clause.text))
    .join('. ');
  const own = positiveTerms(asked);
  // Writing that is not code (a cover letter, an email) says little about a coding skill, even
  // when it names one ("a cover letter for a developer job").
  let damp = NOT_CODE.test(request) ? 0.25 : 1;
  const oneSentence = !/[.?!]\s+\S/.test(request.trim());
  if (
    reading.question === 'explain' ||
    (QUESTION_OPENING.test(request) && oneSentence && reading.question !== 'decide')
  )
    damp *= QUESTION_DAMP;
  // Phrases are read in everything but what the request rules out ("don't add a function").
  const unruled = reading.clauses
    .filter((clause) => clause.role !== 'ruled-out')
    .map((clause) => clause.text)
    .join('. ');
  const texts = [
    unruled,
    ...reading.clauses.filter((clause) => clause.role !== 'ruled-out').map((clause) => clause.text),
  ];
  const phrases = INTENT_PHRASES.filter((phrase) =>
    texts.some((text) => phrase.pattern.test(text)),
  );
  const headPieces: Evidence[] = [];
  let headCount = 0;
  for (const clause of reading.clauses) {
    if (clause.role !== 'asks' || !clause.head) continue;
    headCount += 1;
    const evidence = headEvidence(clause.head, known, clause.headIsVerb === true);
    if (evidence.size > 0) headPieces.push(evidence);
    // A verb of making ("write", "create", "draft") takes its meaning from what it makes:
    // "Write an RFC" is design, "write unit tests" is development.
    if (clause.headIsVerb && MAKING_VERBS.has(clause.head)) {
      const object = clause.text
        .slice(clause.text.toLowerCase().indexOf(clause.head) + clause.head.length)
        .split(/\b(?:for|of|to|that|which|with|on|in|about|from|so|and|where|how)\b|[,;:]/i)[0];
      for (const word of words(object ?? '')) {
        const made = headEvidence(word, known, false);
        if (made.size > 0) headPieces.push(made);
      }
    }
  }
  // Lexicon words as written or inflected ("crashes" → crash), not by stem: "reducers" shares a
  // stem with "reduce" but is not a request to reduce anything.
  const raw = new Set(words(positiveText(asked)).flatMap(inflections));
  const hits = LEXICON.filter(
    (entry) => !entry.headOnly && [...raw].some((word) => entry.words.has(word)),
  );
  // The request asks for something (a verb heads it) that no skill's words reach, and neither a
  // phrase nor a strong lexicon word says which kind of work is meant: "Review this branch",
  // "Describe the payment module" (but "Consolidate the three copies …" is deduplication).
  const strongHit = hits.some((entry) => entry.strength >= STRONG_LEXICON && !entry.topic);
  if (headCount > 0 && headPieces.length === 0 && phrases.length === 0 && !strongHit)
    damp *= UNCOVERED_ACTIVITY_DAMP;
  for (const piece of headPieces) {
    for (const term of piece.keys()) heads.add(term);
    pieces.push(new Map([...piece].map(([term, strength]) => [term, strength * damp])));
  }
  // One piece per word: its own stem and what the lexicon maps it to ("architecture" →
  // architect, design) are one reason, not two. Each lexicon entry counts once.
  const used = new Set<(typeof LEXICON)[number]>();
  const covered = new Set<string>();
  for (const word of words(positiveText(asked))) {
    const piece: Evidence = new Map();
    for (const term of terms(word))
      if (own.has(term) && !covered.has(term)) {
        covered.add(term);
        piece.set(term, damp);
      }
    for (const entry of hits) {
      if (used.has(entry) || !inflections(word).some((form) => entry.words.has(form))) continue;
      used.add(entry);
      for (const term of entry.means)
        piece.set(term, Math.max(piece.get(term) ?? 0, entry.strength * damp));
    }
    if (piece.size > 0)
      pieces.push(
        // When a head says what is asked, the other words are what it is about, and count less.
        headPieces.length > 0
          ? new Map([...piece].map(([term, strength]) => [term, strength * HEAD_DOMINANCE]))
          : piece,
      );
  }
  for (const phrase of phrases)
    pieces.push(new Map([...terms(phrase.means)].map((term) => [term, phrase.strength * damp])));
  if (reading.question === 'decide')
    pieces.push(
      new Map([...terms('design evaluate compare')].map((term) => [term, DECISION_STRENGTH])),
    );
  // "No functional changes": what a constraint keeps is not asked for by any other word either
  // ("Reduce the coupling …, no functional changes" does not ask for a change).
  const kept = new Set(
    reading.clauses
      .filter((clause) => clause.role === 'keeps')
      .flatMap((clause) => [...terms((clause.text.match(KEPT_ACTIONS) ?? []).join(' '))]),
  );
  if (kept.size === 0) return pieces;
  return pieces
    .map((piece) => new Map([...piece].filter(([term]) => !kept.has(term))))
    .filter((piece) => piece.size > 0);
}

/**
 * A description's words without the actions it rules out: "restructure code without changing its
 * behaviour" is not about changing behaviour, so "change" must not point to it.
 */
const describedTerms = (text: string) =>
  // "Design before any code is written": the scene of a description is not its work either.
  positiveTerms(text.replace(/\bbefore\b[^-–,.;:]*/gi, ' '));

/** Negations: the word after one names what is ruled out ("without changing", "does not exist"). */
const NEGATED =
  /\b(without|not|never|nothing\s+(?:should|must|may|will|can))\s+\w+(\s+(its|the|their|any|an?)\s+\w+)?/gi;

/** Behaviour that is to stay as it is ("same behaviour", "keeping the output identical"). */
const PRESERVED =
  /\b(same|identical|unchanged|keep(ing)?|preserv\w*)\s+(the\s+|its\s+|all\s+)?(behaviou?rs?|outputs?|results?|api)\b|\bbehaviou?r\s+(identical|unchanged|the same|intact)\b|\bkeep(ing)?\s+(all\s+|the\s+)?tests?\s+(passing|green)\b/gi;

/**
 * A word and its noun and verb base forms ("crashes" → crash, "duplicated" → duplicate), not its
 * adjective ones: "picker" is not a form of "pick".
 */
const inflections = (word: string): string[] =>
  inflectionBaseForms(word).filter((form) => form === word || !word.endsWith('er'));

/** `text` without what it negates or keeps unchanged. */
const positiveText = (text: string) => text.replace(NEGATED, ' ').replace(PRESERVED, ' ');

/** Content-word stems of `text` except the ones it negates or keeps unchanged. */
const positiveTerms = (text: string) => terms(positiveText(text));

/** The stems `text` negates ("without changing its behaviour" → chang). */
const negatedTerms = (text: string) =>
  terms(
    (text.match(NEGATED) ?? [])
      .map(
        (phrase) => phrase.replace(/^\S+(\s+(should|must|may|will|can))?\s+/i, '').split(/\s+/)[0],
      )
      .join(' '),
  );

/**
 * How much of a skill's score is kept when the request asks for what its description rules out
 * ("add support for comments" against "restructure code without changing its behaviour").
 */
export const RULED_OUT_PENALTY = 0.6;

/** How well a request matches one skill's description. */
export interface SkillScore {
  skill: Skill;
  /** 0..1: 1 − Π(1 − weight) over the distinct matched terms. */
  score: number;
  /** The matched stems, for the reason shown to the user. */
  matched: string[];
}

/**
 * Scores `request` against every skill's description and name, model-free: each distinct content
 * word shared with a description is evidence weighted by how specific it is to that skill (a word
 * every skill uses counts for little), combined as 1 − Π(1 − w). Sorted best first.
 *
 * @example
 * scoreSkills('refactor the parser to remove duplication', skills)[0]; // { skill: refactor, score: 0.9, ... }
 */
export function scoreSkills(request: string, skills: readonly Skill[]): SkillScore[] {
  const described = skills.map((skill) => ({
    skill,
    words: describedTerms(skill.description),
    ruledOut: negatedTerms(skill.description),
    name: terms(skill.name.replace(/-/g, ' ')),
    // Agent Skills descriptions end with "Use when the request asks to …": the actions listed
    // there are what the skill is for, and count like its name.
    triggers: describedTerms(/\buse (it )?when\b(.*)$/is.exec(skill.description)?.[2] ?? ''),
  }));
  const vocabulary = new Set([
    ...skills.flatMap((skill) => words(`${skill.description} ${skill.name.replace(/-/g, ' ')}`)),
    ...LEXICON.flatMap((entry) => [...entry.words]),
  ]);
  const { text: corrected } = correctSpelling(request, vocabulary);
  const known = new Set(described.flatMap(({ words: own, name }) => [...own, ...name]));
  // What a skill is for ("Use when … refactor, clean up"): read as verbs even when WordNet
  // lacks them ("refactor", "deduplicate").
  const actions = new Set(described.flatMap(({ name, triggers }) => [...name, ...triggers]));
  const isVerb = (word: string) =>
    englishLexicon().verbSenses(word, 1).length > 0 ||
    (!word.includes(' ') && [...terms(word)].some((term) => actions.has(term)));
  const heads = new Set<string>();
  const wanted = requestEvidence(corrected, known, isVerb, heads);
  const frequency = new Map<string, number>();
  for (const { words: described_, name } of described)
    for (const term of new Set([...described_, ...name]))
      frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const count = Math.max(1, skills.length);
  const maxIdf = Math.log((count + 1) / 1.5);
  const specificity = (term: string) =>
    maxIdf > 0 ? Math.log((count + 1) / ((frequency.get(term) ?? 1) + 0.5)) / maxIdf : 1;
  return described
    .map(({ skill, words: described_, ruledOut, name, triggers }) => {
      let miss = 1;
      const matched: string[] = [];
      const weightOf = (term: string) => {
        // The request's opening verb says what it asks for ("Split the server…").
        const leading = heads.has(term) && described_.has(term);
        if (leading) return LEADING_TERM_WEIGHT * specificity(term) ** 0.5;
        if (name.has(term) || triggers.has(term))
          return NAME_TERM_WEIGHT * (triggers.has(term) ? specificity(term) ** 0.5 : 1);
        return described_.has(term) ? DESCRIPTION_TERM_WEIGHT * specificity(term) : 0;
      };
      for (const piece of wanted) {
        let best = 0;
        let bestTerm = '';
        for (const [term, strength] of piece) {
          const weight = weightOf(term) * strength;
          if (weight > best) [best, bestTerm] = [weight, term];
        }
        if (best <= 0) continue;
        miss *= 1 - best;
        if (!matched.includes(bestTerm)) matched.push(bestTerm);
      }
      let against = 0;
      for (const piece of wanted)
        for (const [term, strength] of piece)
          // Weak evidence ("make" may mean change) does not rule a skill out; strong evidence does.
          if (ruledOut.has(term)) against = Math.max(against, (strength - 0.5) / 0.5);
      const score = (1 - miss) * (1 - RULED_OUT_PENALTY * against);
      return { skill, score: Math.round(score * 1000) / 1000, matched };
    })
    .sort((a, b) => b.score - a.score || byCodePoint(a.skill.name, b.skill.name));
}

/** How a skill came to be active for a task. */
export interface SkillActivation {
  skill?: Skill;
  /** The request with an explicit `/skill-name` prefix removed. */
  request: string;
  how: 'explicit' | 'option' | 'auto' | 'none';
  /** Confidence of an automatic match (1 for explicit activation). */
  confidence: number;
  /** Why, in words: shown by the CLI and logged. */
  reason: string;
}

const EXPLICIT = /^\s*\/([a-z0-9]+(?:-[a-z0-9]+)*)(?=\s|$)\s*/;

/**
 * Decides which skill, if any, is active for a request: `options.skill` (an API option) first,
 * then a `/skill-name` prefix, then the best description match above `threshold` that leads the
 * runner-up by {@link SKILL_ACTIVATION_MARGIN}. An unknown `options.skill` is a `not_found` error;
 * a `/word` prefix that names no skill is left in the request (it may be a path).
 *
 * @example
 * activateSkill('/designer plan the plugin API', skills); // { skill: designer, request: 'plan the plugin API', how: 'explicit', ... }
 */
export function activateSkill(
  request: string,
  skills: readonly Skill[],
  options: { skill?: string; threshold?: number } = {},
): SkillActivation {
  if (options.skill) {
    const skill = skills.find((candidate) => candidate.name === options.skill);
    if (!skill) {
      throw new CohortError(
        'not_found',
        `Unknown skill "${options.skill}". Available skills: ${skills.map((s) => s.name).join(', ') || 'none'} (run \`cohort skills\`).`,
        { field: 'skill' },
      );
    }
    const stripped = request.replace(EXPLICIT, (prefix, name: string) =>
      name === skill.name ? '' : prefix,
    );
    return {
      skill,
      request: stripped,
      how: 'option',
      confidence: 1,
      reason: `skill "${skill.name}" requested by option`,
    };
  }
  const explicit = EXPLICIT.exec(request);
  const named = explicit ? skills.find((candidate) => candidate.name === explicit[1]) : undefined;
  if (explicit && named) {
    return {
      skill: named,
      request: request.slice(explicit[0].length),
      how: 'explicit',
      confidence: 1,
      reason: `skill "${named.name}" requested with /${named.name}`,
    };
  }
  const threshold = options.threshold ?? SKILL_ACTIVATION_THRESHOLD;
  const [best, second] = scoreSkills(request, skills);
  if (!best || best.score < threshold) {
    return {
      request,
      how: 'none',
      confidence: best?.score ?? 0,
      reason:
        best && best.score > 0
          ? `closest skill "${best.skill.name}" scored ${best.score}, below ${threshold}`
          : 'no skill matches the request',
    };
  }
  if (second && best.score - second.score < SKILL_ACTIVATION_MARGIN) {
    return {
      request,
      how: 'none',
      confidence: best.score,
      reason: `ambiguous: "${best.skill.name}" (${best.score}) and "${second.skill.name}" (${second.score}) match about equally`,
    };
  }
  return {
    skill: best.skill,
    request,
    how: 'auto',
    confidence: best.score,
    reason: `request matches the description of "${best.skill.name}" (${best.score}: ${best.matched.join(', ')})`,
  };
}

/**
 * The compact "available skills" block of the main agent's system prompt: names and descriptions
 * only (progressive disclosure: bodies are injected on activation).
 *
 * @example
 * availableSkillsBlock(skills); // '<available_skills>\n- developer: Implement ...\n</available_skills>'
 */
export function availableSkillsBlock(skills: readonly Skill[], active?: string): string {
  if (skills.length === 0) return '';
  const lines = skills.map(
    (skill) => `- ${skill.name}${skill.name === active ? ' (active)' : ''}: ${skill.description}`,
  );
  return [
    '<available_skills>',
    ...lines,
    '</available_skills>',
    'A user activates a skill by starting the request with /skill-name.',
  ].join('\n');
}

/**
 * The text injected into the main agent's context when `skill` is activated: its body, plus the
 * names of its resources so the model can ask for them.
 *
 * @example
 * skillPrompt(refactor, ['references/checklist.md']);
 */
export function skillPrompt(skill: Skill, resources: readonly string[] = []): string {
  const files = resources.length
    ? `\n\nResources of this skill (read one with read_skill_resource): ${resources.join(', ')}`
    : '';
  return `<active_skill name="${skill.name}">\n${skill.prompt}${files}\n</active_skill>`;
}

/**
 * The tools a task may use once `skill` is active: those its `allowed-tools` rules name among
 * `available` (Claude names map to cohort's: `Read` is read, `Bash(git log:*)` is bash, limited to
 * `git log` by {@link skillPermits}), or all of `available` when the skill does not restrict them.
 * Names the task does not have are ignored (a skill written for another host may name tools
 * cohort lacks).
 *
 * @example
 * allowedToolsFor(designer, ['read', 'write', 'bash']); // ['read']
 */
export function allowedToolsFor(skill: Skill | undefined, available: readonly string[]): string[] {
  if (!skill?.allowedTools) return [...available];
  return toolRestriction(skill.allowedTools).tools(available);
}

/**
 * Whether the active skill's `allowed-tools` let `call` run: the rule that does, or undefined.
 * No skill, or a skill without `allowed-tools`, permits everything.
 *
 * @example
 * skillPermits(gitSkill, { tool: 'bash', input: { command: 'git push' } }, { workspace: '/repo' }); // undefined
 */
export function skillPermits(
  skill: Skill | undefined,
  call: PermissionCall,
  context: PermissionContext,
): string | undefined {
  if (!skill?.allowedTools) return 'no allowed-tools';
  return toolRestriction(skill.allowedTools).permits(call, context);
}

/**
 * Ties by name in code-point order: skill names are lowercase letters, digits and hyphens, and
 * `localeCompare`'s first call loads ICU's collation (60–70 ms of a `cohort code` request).
 */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
