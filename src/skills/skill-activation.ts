import { CohortError } from '../errors/index.js';
import { toolRestriction, type PermissionCall, type PermissionContext } from '../tools/index.js';
import { analyze } from '../retrieval/index.js';
import type { Skill } from './skill-file.js';

/** Default confidence a description match needs to activate a skill on its own. */
export const SKILL_ACTIVATION_THRESHOLD = 0.6;
/** The best skill must lead the runner-up by this much, or the match is ambiguous. */
export const SKILL_ACTIVATION_MARGIN = 0.1;
/** Evidence of a description word no other skill uses; shared words count for less. */
export const DESCRIPTION_TERM_WEIGHT = 0.5;
/** Evidence of the skill's own name in the request ("refactor this"). */
export const NAME_TERM_WEIGHT = 0.6;

/** Request words that say nothing about which skill is needed, beyond ordinary stop words. */
const SKILL_STOPWORDS: ReadonlySet<string> = new Set(
  'please use used using asked ask want need make let get'.split(' '),
);

/** Content-word stems of `text`, analysed as the retrieval index does; lone numbers dropped. */
function terms(text: string): Set<string> {
  return new Set(analyze(text, SKILL_STOPWORDS).filter((term) => !/^\d+$/.test(term)));
}

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
  const wanted = terms(request);
  const described = skills.map((skill) => ({
    skill,
    words: terms(skill.description),
    name: terms(skill.name.replace(/-/g, ' ')),
  }));
  const frequency = new Map<string, number>();
  for (const { words, name } of described)
    for (const term of new Set([...words, ...name]))
      frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const count = Math.max(1, skills.length);
  const maxIdf = Math.log((count + 1) / 1.5);
  const specificity = (term: string) =>
    maxIdf > 0 ? Math.log((count + 1) / ((frequency.get(term) ?? 1) + 0.5)) / maxIdf : 1;
  return described
    .map(({ skill, words, name }) => {
      let miss = 1;
      const matched: string[] = [];
      for (const term of wanted) {
        const weight = name.has(term)
          ? NAME_TERM_WEIGHT
          : words.has(term)
            ? DESCRIPTION_TERM_WEIGHT * specificity(term)
            : 0;
        if (weight <= 0) continue;
        miss *= 1 - weight;
        matched.push(term);
      }
      return { skill, score: Math.round((1 - miss) * 1000) / 1000, matched };
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
