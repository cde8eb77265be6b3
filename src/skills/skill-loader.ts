import { existsSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { NOT_UTF8_NAME, packagePath, readFolderEntries, readFoundFile } from '../config/index.js';
import { isCohortError, reasonInFile } from '../errors/index.js';
import { parseSkillFile, SKILL_FILE, type Skill, type SkillSource } from './skill-file.js';

/** One folder searched for skills. */
export interface SkillSearchPath {
  dir: string;
  source: SkillSource;
}

/** A skill that could not be loaded: which file, which field, and why. */
export interface SkillProblem {
  file: string;
  field?: string;
  reason: string;
}

/** A skill hidden by another of the same name found in an earlier search path. */
export interface ShadowedSkill {
  name: string;
  file: string;
  shadowedBy: string;
}

/** Everything found on the search paths. */
export interface SkillCatalog {
  skills: Skill[];
  problems: SkillProblem[];
  shadowed: ShadowedSkill[];
}

/**
 * The skill search paths, earliest wins: the workspace's `skills/`, its `.cohort/skills/`, its
 * `.claude/skills/` (Claude Code's project skills, read unchanged), then `~/.config/cohort/skills/`
 * and `~/.claude/skills/` (project over user, as Claude Code orders them).
 *
 * @example
 * skillSearchPaths({ workspace: '/repo' })[0]; // { dir: '/repo/skills', source: 'project' }
 */
export function skillSearchPaths(options: { workspace: string; home?: string }): SkillSearchPath[] {
  const workspace = resolve(options.workspace);
  return [
    { dir: join(workspace, 'skills'), source: 'project' },
    { dir: join(workspace, '.cohort', 'skills'), source: 'project-cohort' },
    { dir: join(workspace, '.claude', 'skills'), source: 'project-claude' },
    { dir: join(options.home ?? homedir(), '.config', 'cohort', 'skills'), source: 'user' },
    { dir: join(options.home ?? homedir(), '.claude', 'skills'), source: 'user-claude' },
    { dir: packagePath('skills'), source: 'builtin' },
  ];
}

/**
 * What a symbolic link in a skills folder points to: a folder (a skill), something else (not a
 * skill, ignored like a file), or nothing, as the reason to report (a dangling link's stat threw
 * "ENOENT" out of the whole catalog).
 */
function linkTarget(
  path: string,
): { kind: 'folder' | 'other' } | { kind: 'nothing'; reason: string } {
  try {
    return { kind: statSync(path).isDirectory() ? 'folder' : 'other' };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return { kind: 'nothing', reason: `a symbolic link to nothing (${code})` };
  }
}

function loadOne(folder: string, name: string, source: SkillSource): Skill | SkillProblem {
  const file = join(folder, SKILL_FILE);
  if (!existsSync(file)) return { file: folder, reason: `folder has no ${SKILL_FILE}` };
  try {
    return parseSkillFile(readFoundFile(file, 'skill file'), file, {
      folderName: name,
      dir: folder,
      source,
    });
  } catch (error) {
    if (!isCohortError(error)) return { file, reason: (error as Error).message };
    // The message starts with the file, which the problem carries separately.
    return { file, ...(error.field ? { field: error.field } : {}), reason: reasonInFile(error) };
  }
}

/**
 * Loads every skill (a folder with a SKILL.md) on the search paths. A malformed skill becomes a
 * problem naming its file, field and reason and is skipped; a name found twice keeps the earliest
 * and reports the other as shadowed. Missing search folders are simply empty.
 *
 * @example
 * const { skills, problems, shadowed } = loadSkills({ workspace: process.cwd() });
 */
export function loadSkills(options: {
  workspace: string;
  home?: string;
  paths?: SkillSearchPath[];
}): SkillCatalog {
  const paths = options.paths ?? skillSearchPaths(options);
  const byName = new Map<string, Skill>();
  const problems: SkillProblem[] = [];
  const shadowed: ShadowedSkill[] = [];
  const seen = new Set<string>();
  for (const { dir, source } of paths) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) continue;
    // The workspace may be the home folder: one folder is searched once.
    const real = realpathSync(dir);
    if (seen.has(real)) continue;
    seen.add(real);
    const entries: string[] = [];
    for (const { name, utf8, kind } of readFolderEntries(dir)) {
      if (name.startsWith('.')) continue;
      if (!kind.isDirectory() && !kind.isSymbolicLink()) continue;
      // A folder (or link) whose name is not UTF-8 cannot be opened by name: it was reported as
      // "folder has no SKILL.md", which it may well have.
      if (!utf8) problems.push({ file: join(dir, name), reason: NOT_UTF8_NAME });
      else if (kind.isDirectory()) entries.push(name);
      else {
        const target = linkTarget(join(dir, name));
        if (target.kind === 'folder') entries.push(name);
        else if (target.kind === 'nothing')
          problems.push({ file: join(dir, name), reason: target.reason });
      }
    }
    entries.sort();
    for (const name of entries) {
      const loaded = loadOne(join(dir, name), name, source);
      if (!('prompt' in loaded)) {
        problems.push(loaded);
        continue;
      }
      const earlier = byName.get(loaded.name);
      if (earlier)
        shadowed.push({ name: loaded.name, file: loaded.file, shadowedBy: earlier.file });
      else byName.set(loaded.name, loaded);
    }
  }
  return { skills: [...byName.values()], problems, shadowed };
}
