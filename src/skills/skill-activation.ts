import { CohortError } from '../errors/index.js';
import { toolRestriction, type PermissionCall, type PermissionContext } from '../tools/index.js';
import { analyze } from '../retrieval/index.js';
import { INTENT_LEXICON, INTENT_PHRASES, NOT_CODE, QUESTION_OPENING } from './intent-lexicon.js';
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

/** Edit distance with transpositions (Damerau), stopping early past `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [
    i,
    ...Array<number>(b.length).fill(0),
  ]);
  for (let j = 1; j <= b.length; j += 1) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    const row = rows[i] as number[];
    const up = rows[i - 1] as number[];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((up[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (up[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] ?? 0, ((rows[i - 2] as number[])[j - 2] ?? 0) + 1);
    }
  }
  return (rows[a.length] as number[])[b.length] ?? limit + 1;
}

/** Words of `text`, lowercased, for spelling checks. */
const words = (text: string) => text.toLowerCase().match(/[a-z][a-z-]*/g) ?? [];

/** The lexicon with its words and meanings analysed once. */
const LEXICON = INTENT_LEXICON.map((entry) => ({
  words: new Set(words(entry.words)),
  stems: terms(entry.words),
  means: [...terms(entry.means)],
  strength: entry.strength,
}));

/** One piece of evidence: the stems it points to, each with how sure the pointing is. */
type Evidence = Map<string, number>;

/**
 * The evidence a request gives, as separate pieces: each of its own words (strength 1), each
 * {@link INTENT_LEXICON} entry and {@link INTENT_PHRASES} phrase it hits (the words they map to),
 * and the intended word for a misspelt one ("refactr" → refactor) among `vocabulary`. A piece
 * counts once however many of a skill's words it points to: "feature" → implement, add, build is
 * one reason to pick the developer, not three.
 */
function requestEvidence(
  request: string,
  vocabulary: ReadonlySet<string>,
  stems: ReadonlySet<string>,
): Evidence[] {
  const pieces: Evidence[] = [];
  const own = positiveTerms(request);
  // Writing that is not code (a cover letter, an email) says little about a coding skill, even
  // when it names one ("a cover letter for a developer job").
  const notCode = NOT_CODE.test(request) ? 0.25 : 1;
  const oneSentence = !/[.?!]\s+\S/.test(request.trim());
  const damp = QUESTION_OPENING.test(request) && oneSentence ? 0.5 * notCode : notCode;
  for (const term of own) pieces.push(new Map([[term, damp]]));
  const raw = new Set(words(request));
  for (const entry of LEXICON) {
    const hit =
      [...raw].some((word) => entry.words.has(word)) ||
      [...own].some((term) => entry.stems.has(term));
    if (hit) pieces.push(new Map(entry.means.map((term) => [term, entry.strength * damp])));
  }
  for (const phrase of INTENT_PHRASES)
    if (phrase.pattern.test(request))
      pieces.push(new Map([...terms(phrase.means)].map((term) => [term, phrase.strength * damp])));
  // A misspelt action word: one edit away from a word of some skill's description (five letters or more).
  for (const word of raw) {
    if (word.length < 5 || vocabulary.has(word) || [...terms(word)].every((t) => stems.has(t)))
      continue;
    for (const known of vocabulary) {
      if (known.length >= 5 && editDistance(word, known, 1) <= 1) {
        pieces.push(new Map([...terms(known)].map((term) => [term, 0.9])));
        break;
      }
    }
  }
  return pieces;
}

/**
 * A description's words without the actions it rules out: "restructure code without changing its
 * behaviour" is not about changing behaviour, so "change" must not point to it.
 */
const describedTerms = (text: string) => positiveTerms(text);

/** Negations: the word after one names what is ruled out ("without changing", "does not exist"). */
const NEGATED =
  /\b(without|not|never|nothing\s+(?:should|must|may|will|can))\s+\w+(\s+(its|the|their|any|an?)\s+\w+)?/gi;

/** Behaviour that is to stay as it is ("same behaviour", "keeping the output identical"). */
const PRESERVED =
  /\b(same|identical|unchanged|keep(ing)?|preserv\w*)\s+(the\s+|its\s+|all\s+)?(behaviou?rs?|outputs?|results?|api)\b|\bbehaviou?r\s+(identical|unchanged|the same|intact)\b/gi;

/** Content-word stems of `text` except the ones it negates or keeps unchanged. */
const positiveTerms = (text: string) => terms(text.replace(NEGATED, ' ').replace(PRESERVED, ' '));

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
  const first = terms(request.split(/\s+/).slice(0, 1).join(' '));
  const vocabulary = new Set(
    skills.flatMap((skill) => words(`${skill.description} ${skill.name.replace(/-/g, ' ')}`)),
  );
  const known = new Set(described.flatMap(({ words: own, name }) => [...own, ...name]));
  const wanted = requestEvidence(request, vocabulary, known);
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
        const leading = first.has(term) && described_.has(term);
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
    .sort((a, b) => b.score - a.score || a.skill.name.localeCompare(b.skill.name));
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
