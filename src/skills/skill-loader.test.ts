import { spawnSync } from 'node:child_process';
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { NOT_UTF8_NAME } from '../config/index.js';
import { namedPipe } from '../test/named-pipe.js';
import { parseSkillFile } from './skill-file.js';
import { loadSkills, type SkillCatalog } from './skill-loader.js';
import {
  listSkillResources,
  MAX_LISTED_SKILL_RESOURCES,
  readSkillResource,
} from './skill-resources.js';

const base = mkdtempSync(join(tmpdir(), 'cohort-skills-'));
const workspace = join(base, 'ws');
const home = join(base, 'home');
afterAll(() => rmSync(base, { recursive: true, force: true }));

const skill = (dir: string, name: string, frontmatter: string, body = 'Do the thing well.') => {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'SKILL.md'), `---\n${frontmatter}\n---\n${body}\n`);
};
const projectDir = join(workspace, 'skills');
const cohortDir = join(workspace, '.cohort', 'skills');
const userDir = join(home, '.config', 'cohort', 'skills');

skill(
  projectDir,
  'pdf-tools',
  'name: pdf-tools\ndescription: Work with PDF files.\nallowed-tools: read glob\nmodel: fast\nmetadata:\n  author: me\nargument-hint: "[file]"',
);
skill(cohortDir, 'pdf-tools', 'name: pdf-tools\ndescription: A shadowed copy.');
skill(
  cohortDir,
  'notes',
  'name: notes\ndescription: Take notes.\nallowed-tools: [read, write_doc]',
);
skill(userDir, 'Bad-Name', 'name: Bad-Name\ndescription: x');
skill(userDir, 'mismatch', 'name: other\ndescription: x');
skill(userDir, 'no-description', 'name: no-description');
skill(userDir, 'broken-yaml', 'name: [unclosed\ndescription: x');
skill(
  userDir,
  'long-compat',
  `name: long-compat\ndescription: x\ncompatibility: ${'c'.repeat(501)}`,
);
skill(userDir, 'meta-number', 'name: meta-number\ndescription: x\nmetadata:\n  version: 2');
mkdirSync(join(userDir, 'empty-folder'));
mkdirSync(join(projectDir, 'pdf-tools', 'references'));
mkdirSync(join(projectDir, 'pdf-tools', 'scripts'));
writeFileSync(join(projectDir, 'pdf-tools', 'references', 'guide.md'), '# Guide');
writeFileSync(join(projectDir, 'pdf-tools', 'scripts', 'extract.sh'), 'echo hi');
writeFileSync(join(projectDir, 'pdf-tools', 'notes.txt'), 'not a resource');
writeFileSync(join(base, 'secret.txt'), 'secret');
symlinkSync(join(base, 'secret.txt'), join(projectDir, 'pdf-tools', 'references', 'leak.md'));

/** The names of a catalog's skills other than those cohort ships. */
const ownNames = (catalog: SkillCatalog) =>
  catalog.skills.filter((s) => s.source !== 'builtin').map((s) => s.name);

describe('loadSkills', () => {
  const catalog = loadSkills({ workspace, home });

  it('loads valid skills from every search path, earliest path winning', () => {
    expect(catalog.skills.map((s) => [s.name, s.source])).toEqual([
      ['pdf-tools', 'project'],
      ['notes', 'project-cohort'],
      ['designer', 'builtin'],
      ['developer', 'builtin'],
      ['refactor', 'builtin'],
    ]);
    expect(catalog.skills[0]).toMatchObject({
      description: 'Work with PDF files.',
      allowedTools: ['read', 'glob'],
      model: 'fast',
      metadata: { author: 'me' },
      prompt: 'Do the thing well.',
    });
    expect(catalog.skills[1]?.allowedTools).toEqual(['read', 'write_doc']);
    expect(catalog.shadowed).toEqual([
      {
        name: 'pdf-tools',
        file: join(cohortDir, 'pdf-tools', 'SKILL.md'),
        shadowedBy: join(projectDir, 'pdf-tools', 'SKILL.md'),
      },
    ]);
  });

  it("offers the skills cohort ships in any workspace, after the workspace's and the user's own", () => {
    // They were found only in cohort's own clone: `cohort code --skill developer` elsewhere was
    // 'Unknown skill "developer". Available skills: none'.
    const empty = mkdtempSync(join(base, 'empty-'));
    const shipped = loadSkills({ workspace: empty, home: join(empty, 'home') });
    expect(shipped.skills.map((s) => [s.name, s.source])).toEqual([
      ['designer', 'builtin'],
      ['developer', 'builtin'],
      ['refactor', 'builtin'],
    ]);
    skill(join(empty, 'skills'), 'developer', 'name: developer\ndescription: Ours.');
    const ours = loadSkills({ workspace: empty, home: join(empty, 'home') });
    expect(ours.skills.find((s) => s.name === 'developer')?.source).toBe('project');
    expect(ours.shadowed.map((s) => s.name)).toEqual(['developer']);
  });

  it('reports each malformed skill with file, field and reason instead of failing', () => {
    const byFolder = Object.fromEntries(
      catalog.problems.map((p) => [
        p.file.split('/').slice(-2)[0] === 'skills'
          ? p.file.split('/').pop()
          : p.file.split('/').slice(-2)[0],
        p,
      ]),
    );
    expect(byFolder['Bad-Name']).toMatchObject({
      field: 'name',
      reason: expect.stringContaining('lowercase'),
    });
    expect(byFolder['mismatch']).toMatchObject({
      field: 'name',
      reason: expect.stringContaining('folder name'),
    });
    expect(byFolder['no-description']).toMatchObject({
      field: 'description',
      reason: expect.stringContaining('required'),
    });
    expect(byFolder['broken-yaml']?.reason).toContain('YAML');
    expect(byFolder['long-compat']).toMatchObject({ field: 'compatibility' });
    expect(byFolder['meta-number']).toMatchObject({ field: 'metadata.version' });
    expect(byFolder['empty-folder']?.reason).toContain('no SKILL.md');
    expect(catalog.problems).toHaveLength(7);
  });
});

describe('loadSkills on hostile folders', () => {
  it('reports a SKILL.md that is a named pipe instead of blocking on it', () => {
    // `cohort skills` and `cohort code` waited for a writer for ever.
    const root = join(base, 'piped');
    const dir = join(root, 'skills');
    skill(dir, 'fine', 'name: fine\ndescription: Still loads.');
    mkdirSync(join(dir, 'piped'));
    const file = join(dir, 'piped', 'SKILL.md');
    const stop = namedPipe(file, '---\nname: piped\ndescription: x\n---\nbody');
    try {
      const catalog = loadSkills({ workspace: root, home: join(root, 'home') });
      expect(ownNames(catalog)).toEqual(['fine']);
      expect(catalog.problems).toEqual([
        {
          file,
          reason:
            'this skill file is a named pipe (FIFO), not a file: replace it with a file or remove it.',
        },
      ]);
    } finally {
      stop();
    }
  });

  it('reports a SKILL.md over the size limit without reading it', () => {
    // A 200 MB SKILL.md was read whole (about 460 MB RSS for `cohort skills`) before anything
    // refused it.
    const root = join(base, 'huge');
    const dir = join(root, 'skills');
    skill(dir, 'fine', 'name: fine\ndescription: Still loads.');
    mkdirSync(join(dir, 'huge'));
    const file = join(dir, 'huge', 'SKILL.md');
    writeFileSync(file, '---\nname: huge\ndescription: big\n---\n');
    truncateSync(file, 200 * 1024 * 1024);
    const catalog = loadSkills({ workspace: root, home: join(root, 'home') });
    expect(ownNames(catalog)).toEqual(['fine']);
    expect(catalog.problems).toEqual([
      {
        file,
        reason:
          'this skill file is 200.0 MB, over the 1 MB such a file may hold: shorten it or remove it.',
      },
    ]);
  });

  it('reports a link to nothing and a link loop, and loads the rest', () => {
    // A dangling link in skills/ threw "unexpected error: ENOENT … stat" out of `cohort skills`
    // and `cohort code`.
    const root = join(base, 'links');
    const dir = join(root, 'skills');
    skill(dir, 'fine', 'name: fine\ndescription: Still loads.');
    symlinkSync(join(root, 'nowhere'), join(dir, 'dangling'));
    symlinkSync(join(dir, 'loop'), join(dir, 'loop'));
    const catalog = loadSkills({ workspace: root, home: join(root, 'home') });
    expect(ownNames(catalog)).toEqual(['fine']);
    expect(catalog.problems).toEqual([
      { file: join(dir, 'dangling'), reason: 'a symbolic link to nothing (ENOENT)' },
      { file: join(dir, 'loop'), reason: 'a symbolic link to nothing (ELOOP)' },
    ]);
  });
});

describe('parseSkillFile', () => {
  const parse = (frontmatter: string) => () =>
    parseSkillFile(`---\n${frontmatter}\n---\nbody`, 'x/SKILL.md', {
      folderName: 'ok-name',
      dir: 'x',
      source: 'project',
    });
  it('enforces the name rules', () => {
    expect(parse('name: ok-name\ndescription: d')).not.toThrow();
    for (const name of ['-ok', 'ok-', 'ok--name', 'OK', 'a'.repeat(65), '""']) {
      expect(parse(`name: ${name}\ndescription: d`), name).toThrow(/name/);
    }
  });
  it('says a name or description YAML read as a number or a flag is not text, not that it is missing', () => {
    // `name: 123` was reported as "name is required", with the name right there.
    expect(parse('name: 123\ndescription: d')).toThrow(
      /name must be text, not a number \(123\): put it in quotes/,
    );
    expect(parse('name: ok-name\ndescription: true')).toThrow(
      /description must be text, not a boolean \(true\): put it in quotes/,
    );
    expect(parse('description: d')).toThrow(/name is required/);
    // The field was named twice: "description: description must be text, …".
    expect(parse('name: ok-name\ndescription: 5')).toThrow(
      /^x\/SKILL\.md: description must be text, not a number \(5\): put it in quotes$/,
    );
  });
  it('enforces the description length', () => {
    expect(parse(`name: ok-name\ndescription: ${'d'.repeat(1025)}`)).toThrow(/1024/);
    expect(parse('name: ok-name\ndescription: "  "')).toThrow(/description/);
  });
  it('refuses a body too long for a prompt, which activation would send whole', () => {
    const long = () =>
      parseSkillFile(
        `---\nname: ok-name\ndescription: d\n---\n${'word '.repeat(40_000)}`,
        'x/SKILL.md',
        {
          folderName: 'ok-name',
          dir: 'x',
          source: 'project',
        },
      );
    expect(long).toThrow(/body is 199,999 characters; at most 100,000/);
  });
  it('refuses a file without frontmatter', () => {
    expect(() =>
      parseSkillFile('just text', 'x/SKILL.md', { folderName: 'x', dir: 'x', source: 'user' }),
    ).toThrow(/frontmatter/);
  });
});

describe('skill resources', () => {
  const pdf = { name: 'pdf-tools', dir: join(projectDir, 'pdf-tools') };
  it('lists references, scripts and assets without reading them', () => {
    expect(listSkillResources(pdf)).toEqual(['references/guide.md', 'scripts/extract.sh']);
  });
  it('reads a resource, confined to the resource folders of the skill', () => {
    expect(readSkillResource(pdf, 'references/guide.md')).toBe('# Guide');
    expect(() => readSkillResource(pdf, 'notes.txt')).toThrow(/resources live under/);
    expect(() => readSkillResource(pdf, 'SKILL.md')).toThrow(/resources live under/);
    expect(() => readSkillResource(pdf, 'references/../../../secret.txt')).toThrow(/\.\./);
    expect(() => readSkillResource(pdf, join(base, 'secret.txt'))).toThrow(/outside/);
    expect(() => readSkillResource(pdf, 'references/leak.md')).toThrow(/symlink/);
  });
  it('refuses a resource that is a hard link, whose other name may be outside the skill', () => {
    // The path was checked inside the skill, and the file opened by it was another name of a file
    // outside: a hard link references/notes.md to a secret was read whole (outside tester).
    const dir = mkdtempSync(join(tmpdir(), 'cohort-skill-hard-'));
    mkdirSync(join(dir, 'skill', 'references'), { recursive: true });
    writeFileSync(join(dir, 'secret.txt'), 'the secret');
    linkSync(join(dir, 'secret.txt'), join(dir, 'skill', 'references', 'notes.md'));
    writeFileSync(join(dir, 'skill', 'references', 'own.md'), 'its own');
    const linked = { name: 'linked', dir: join(dir, 'skill') };
    expect(() => readSkillResource(linked, 'references/notes.md')).toThrow(/2 hard links/);
    expect(readSkillResource(linked, 'references/own.md')).toBe('its own');
  });
  it('reads a large resource only up to the output bound, and names a binary one', () => {
    // Found by an outside tester: a 5 MB reference went into the model's prompt whole, and a
    // 300 MB asset was read into memory (2.4 GB at the peak).
    const dir = mkdtempSync(join(tmpdir(), 'cohort-skill-big-'));
    mkdirSync(join(dir, 'references'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'references', 'huge.md'), 'word '.repeat(1_000_000));
    writeFileSync(join(dir, 'assets', 'model.bin'), Buffer.alloc(1_000_000));
    for (let i = 0; i < 300; i++) writeFileSync(join(dir, 'assets', `frame-${i}.txt`), 'x');
    const big = { name: 'big', dir };
    const text = readSkillResource(big, 'references/huge.md', 1_000);
    expect(text.length).toBeLessThan(1_200);
    expect(text).toContain('characters cut');
    expect(text).toContain('the file has 5000000 bytes; the first 4000 were read');
    expect(readSkillResource(big, 'assets/model.bin')).toBe(
      '[assets/model.bin is a binary file of 1000000 bytes; it is not shown as text.]',
    );
    expect(listSkillResources(big)).toHaveLength(MAX_LISTED_SKILL_RESOURCES);
  });
  it('lists the resources it can, past a folder it cannot list and out of no link', () => {
    // A folder whose name is not UTF-8 (Node lists it with U+FFFD, a path no folder has) threw
    // ENOENT out of the listing: 'cohort code: unexpected error: ENOENT … scandir', and POST
    // /code answered 500. A resource folder that is a link out of the skill was walked: the names
    // of the files under / went into the prompt, none of which read_skill_resource reads.
    const dir = mkdtempSync(join(tmpdir(), 'cohort-skill-odd-'));
    mkdirSync(join(dir, 'references'));
    writeFileSync(join(dir, 'references', 'guide.md'), '# Guide');
    const odd = Buffer.concat([Buffer.from(join(dir, 'references', 'bad')), Buffer.from([0xff])]);
    mkdirSync(odd);
    writeFileSync(Buffer.concat([odd, Buffer.from('/hidden.md')]), 'x');
    symlinkSync(base, join(dir, 'assets'));
    symlinkSync(join(dir, 'references'), join(dir, 'scripts'));
    try {
      expect(listSkillResources({ dir })).toEqual(['references/guide.md']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('names a FIFO among the resources as a FIFO, without waiting on it', () => {
    // It was called "a folder".
    const dir = mkdtempSync(join(tmpdir(), 'cohort-skill-fifo-'));
    mkdirSync(join(dir, 'references'));
    const made = spawnSync('mkfifo', [join(dir, 'references', 'pipe.md')]);
    if (made.status !== 0) throw new Error(`mkfifo failed: ${String(made.stderr)}`);
    try {
      expect(() => readSkillResource({ name: 'odd', dir }, 'references/pipe.md')).toThrow(
        '"references/pipe.md" is a FIFO (named pipe), not a file; list the skill\'s resources to pick a file.',
      );
      expect(() => readSkillResource({ name: 'odd', dir }, 'references')).toThrow(
        '"references" is a folder, not a file',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('skills whose folder name is not UTF-8', () => {
  it('are reported as such, not as a folder with no SKILL.md', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cohort-skill-latin1-'));
    const folder = Buffer.concat([Buffer.from(join(dir, 'caf')), Buffer.from([0xe9])]);
    mkdirSync(folder);
    writeFileSync(
      Buffer.concat([folder, Buffer.from('/SKILL.md')]),
      '---\nname: cafe\ndescription: x\n---\nbody\n',
    );
    skill(dir, 'plain', 'name: plain\ndescription: A plain skill.');
    try {
      const catalog = loadSkills({ workspace: dir, paths: [{ dir, source: 'project' }] });
      expect(catalog.skills.map((s) => s.name)).toEqual(['plain']);
      expect(catalog.problems).toEqual([{ file: join(dir, 'caf\\xE9'), reason: NOT_UTF8_NAME }]);
      expect(NOT_UTF8_NAME).toMatch(/^its name is not UTF-8 .*rename it using UTF-8 only/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('shipped skills', () => {
  const repo = fileURLToPath(new URL('../../', import.meta.url));
  it('parse cleanly, with the designer limited to read-only tools plus write_doc', () => {
    const catalog = loadSkills({
      workspace: repo,
      home: join(base, 'nobody'),
      paths: [{ dir: join(repo, 'skills'), source: 'project' }],
    });
    expect(catalog.problems).toEqual([]);
    expect(catalog.skills.map((s) => s.name)).toEqual(['designer', 'developer', 'refactor']);
    const designer = catalog.skills.find((s) => s.name === 'designer');
    expect(designer?.allowedTools).toEqual(['read', 'glob', 'grep', 'write_doc', 'task']);
    expect(catalog.skills.find((s) => s.name === 'developer')?.allowedTools).toBeUndefined();
    expect(catalog.skills.find((s) => s.name === 'refactor')?.allowedTools).toBeUndefined();
  });
});
