import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSkills } from './skill-loader.js';
import {
  activateSkill,
  allowedToolsFor,
  availableSkillsBlock,
  scoreSkills,
  skillPrompt,
} from './skill-activation.js';
import type { Skill } from './skill-file.js';

const make = (name: string, description: string, allowedTools?: string[]): Skill => ({
  name,
  description,
  metadata: {},
  prompt: `You are the ${name}.`,
  dir: `/skills/${name}`,
  file: `/skills/${name}/SKILL.md`,
  source: 'project',
  ...(allowedTools ? { allowedTools } : {}),
});
const skills = [
  make('developer', 'Implement features and fix bugs: write code, add tests and run the build.'),
  make(
    'designer',
    'Plan architecture and design modules, interfaces and data flow; write design documents.',
    ['read', 'glob', 'grep', 'write_doc'],
  ),
  make(
    'refactor',
    'Restructure existing code without changing behaviour: rename, extract, remove duplication.',
  ),
];

describe('activateSkill', () => {
  it('activates the skill whose description matches the request', () => {
    expect(
      activateSkill('please remove the duplication and rename the helpers', skills),
    ).toMatchObject({
      how: 'auto',
      skill: { name: 'refactor' },
    });
    expect(activateSkill('fix the crash and add tests for it', skills).skill?.name).toBe(
      'developer',
    );
    expect(
      activateSkill('we need an architecture plan for the data flow', skills).skill?.name,
    ).toBe('designer');
  });

  it('reads a request whose wanted thing holds regular-expression characters as text', () => {
    // The head noun of "I need a …" is the request's own word, whatever it holds: "fix(" made an
    // invalid regular expression (`cohort code` exited with "unexpected error", POST /code 500).
    for (const request of [
      'I need a fix( for the parser',
      'we need a parser[ that reads tests',
      'I want a (a+)+$ check',
    ])
      expect(() => activateSkill(request, skills), request).not.toThrow();
    expect(activateSkill('I need a fix( for the failing tests', skills).skill?.name).toBe(
      'developer',
    );
  });

  it('stays inactive below the threshold or when two skills tie', () => {
    expect(activateSkill('what is the weather like', skills).how).toBe('none');
    expect(activateSkill('what is the weather like', skills).skill).toBeUndefined();
    expect(activateSkill('fix the bugs', skills, { threshold: 0.99 }).how).toBe('none');
    const twins = [
      make('alpha', 'Handle invoices and receipts.'),
      make('beta', 'Handle invoices and receipts.'),
    ];
    expect(
      activateSkill('handle these invoices and receipts', twins, { threshold: 0.1 }).reason,
    ).toContain('ambiguous');
  });

  it('honours /skill-name at the start and strips it from the request', () => {
    expect(activateSkill('/designer fix the login bug', skills)).toMatchObject({
      how: 'explicit',
      skill: { name: 'designer' },
      request: 'fix the login bug',
    });
    // A slash word that names no skill is part of the request (e.g. a path).
    const path = activateSkill('/etc/hosts is wrong', skills);
    expect(path.request).toBe('/etc/hosts is wrong');
    expect(path.how).not.toBe('explicit');
  });

  it('takes an API option first and refuses an unknown one', () => {
    expect(activateSkill('anything', skills, { skill: 'refactor' })).toMatchObject({
      how: 'option',
      skill: { name: 'refactor' },
    });
    expect(() => activateSkill('anything', skills, { skill: 'chef' })).toThrow(
      /Unknown skill "chef".*developer/,
    );
  });

  it('scores are explainable and sorted', () => {
    const [best] = scoreSkills('rename and extract the parser', skills);
    expect(best?.skill.name).toBe('refactor');
    expect(best?.matched).toEqual(['renam', 'extract']);
  });
});

describe('progressive disclosure and tool limits', () => {
  it('the available block has names and descriptions but no bodies', () => {
    const block = availableSkillsBlock(skills);
    for (const skill of skills) {
      expect(block).toContain(`- ${skill.name}: ${skill.description}`);
      expect(block).not.toContain(skill.prompt);
    }
    expect(skillPrompt(skills[0]!, ['references/a.md'])).toContain('You are the developer.');
  });

  it('restricts tools to allowed-tools, or keeps all without the field', () => {
    const all = ['glob', 'grep', 'read', 'write', 'edit', 'write_doc', 'bash'];
    expect(allowedToolsFor(skills[1], all)).toEqual(['glob', 'grep', 'read', 'write_doc']);
    expect(allowedToolsFor(skills[0], all)).toEqual(all);
    expect(allowedToolsFor(undefined, all)).toEqual(all);
  });
});

// The skills cohort ships (skills/*/SKILL.md), as `cohort code` and `cohort eval skills` see them.
const shipped = loadSkills({
  workspace: fileURLToPath(new URL('../..', import.meta.url)),
  home: '/nonexistent',
}).skills;

describe('activation of the shipped skills', () => {
  it('reads negations: what a description or a request rules out is not evidence for it', () => {
    // "without changing behaviour" in the refactor description is no reason to pick it for a
    // behaviour change, and is a reason against it.
    expect(
      activateSkill('Change the retry logic so it backs off exponentially.', shipped),
    ).toMatchObject({ how: 'auto', skill: { name: 'developer' } });
    expect(
      activateSkill('Refactor the parser and then add support for comments.', shipped).skill?.name,
    ).toBe('developer');
    // "without changing its behaviour" in a request does not ask for a behaviour change.
    const kept = scoreSkills(
      'Simplify the error handling without changing its behaviour.',
      shipped,
    );
    expect(kept[0]?.skill.name).toBe('refactor');
    expect(kept.find((s) => s.skill.name === 'developer')?.matched).not.toContain('behaviour');
  });

  it("counts one lexicon hit once, however many of a skill's words it maps to", () => {
    // "feature" maps to implement, add and build: one reason, not three, so the opening "plan" wins.
    expect(
      activateSkill(
        'plan how the search feature should be split between frontend and backend',
        skills,
      ).skill?.name,
    ).toBe('designer');
  });

  it('does not read a correctly spelt inflection as a misspelling ("module" for "modules")', () => {
    const scores = scoreSkills('Rename the confusing variables in the billing module.', shipped);
    expect(scores[0]?.skill.name).toBe('refactor');
    expect(scores.find((s) => s.skill.name === 'designer')?.score ?? 0).toBeLessThan(0.55);
  });

  it('is not pulled in by writing that is not code', () => {
    expect(activateSkill('Write a cover letter for a backend developer job.', shipped).how).toBe(
      'none',
    );
    expect(activateSkill('Draft an email to the team about the outage.', shipped).how).toBe('none');
  });

  it('reads misspellings against an English dictionary, not against the skill words alone', () => {
    expect(activateSkill('impelment a parser for the log format', shipped).skill?.name).toBe(
      'developer',
    );
    // "inline" and "define" are skill words, but "online" and "refine" are English words.
    expect(activateSkill('How do I get online from the hotel?', shipped).how).toBe('none');
  });

  it('maps a head verb no description uses through its WordNet senses', () => {
    // "mend" shares a sense with "fix"; "redesign" is a kind of "design".
    expect(activateSkill('Mend the date picker on the booking page.', shipped).skill?.name).toBe(
      'developer',
    );
    expect(activateSkill('Redesign how the jobs queue hands work out.', shipped).skill?.name).toBe(
      'designer',
    );
  });

  it('stays inactive when the main verb asks for work no skill does', () => {
    // The object is code, but describing, reviewing and estimating are not a skill's job.
    expect(activateSkill('Describe what the retry module does.', shipped).how).toBe('none');
    expect(activateSkill('Review the changes on this branch for risks.', shipped).how).toBe('none');
    expect(activateSkill('How long would it take to add SSO to the admin app?', shipped).how).toBe(
      'none',
    );
  });

  it('reads the main clause, not scene-setting or constraint clauses', () => {
    expect(
      activateSkill(
        'Before implementing the exporter, work out the stages it needs and what each returns.',
        shipped,
      ).skill?.name,
    ).toBe('designer');
    expect(
      activateSkill(
        'Restructure the handlers folder so each route owns a file, with no behaviour change.',
        shipped,
      ).skill?.name,
    ).toBe('refactor');
  });

  it('reads a verb of making by what it makes', () => {
    expect(
      activateSkill('Write an ADR for moving the build to esbuild.', shipped).skill?.name,
    ).toBe('designer');
    expect(activateSkill('Write the code for a bounded queue.', shipped).skill?.name).toBe(
      'developer',
    );
  });

  it('reads a conditional as a statement, and a question about how things work as no task', () => {
    expect(
      activateSkill('When the cache is cold the page times out; it should retry once.', shipped)
        .skill?.name,
    ).toBe('developer');
    expect(activateSkill('Which editors have good multi-cursor editing?', shipped).how).toBe(
      'none',
    );
  });

  it('counts a strong lexicon word even when the verb reaches no skill', () => {
    expect(
      activateSkill('Consolidate the four copied date formatters into one module.', shipped).skill
        ?.name,
    ).toBe('refactor');
  });

  it('lets the head verb outweigh the nouns it acts on', () => {
    // "hooks" is also a verb of wiring things in, but here it is what is split.
    expect(
      activateSkill('Decompose the huge useEffect in Settings.tsx into smaller hooks.', shipped)
        .skill?.name,
    ).toBe('refactor');
  });

  it('counts one word once, even when both a description and the lexicon know it', () => {
    // "architecture" is a designer word twice over, but reviewing is no skill's work.
    expect(
      activateSkill('Could you review the architecture slides and send comments?', shipped).how,
    ).toBe('none');
  });

  it('reads what a constraint keeps as asked of no word, and a noun head no skill names as no task', () => {
    expect(
      activateSkill(
        'Reduce the coupling between the router and the store by adding a facade, no functional changes.',
        shipped,
      ).skill?.name,
    ).toBe('refactor');
    expect(activateSkill('Give me an estimate for building the import feature.', shipped).how).toBe(
      'none',
    );
  });

  it('reads a behaviour verb heading a clause as a change, not the same word as a noun', () => {
    expect(
      activateSkill('Log a warning when the queue grows past 1,000 jobs.', shipped).skill?.name,
    ).toBe('developer');
    expect(activateSkill('Where is the log file of the worker kept?', shipped).how).toBe('none');
  });
});
