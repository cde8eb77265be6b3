import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { CohortError } from '../errors/index.js';
import { createWorkspace } from '../tools/index.js';
import type { Skill } from './skill-file.js';

/** The folders of a skill read only on demand (Agent Skills format). */
export const SKILL_RESOURCE_FOLDERS = ['references', 'scripts', 'assets'] as const;

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.isFile()) out.push(path);
  }
}

/**
 * The files under a skill's `references/`, `scripts/` and `assets/`, relative to the skill folder,
 * without reading them (progressive disclosure: the model asks for what it needs).
 *
 * @example
 * listSkillResources(skill); // ['references/checklist.md', 'scripts/lint.sh']
 */
export function listSkillResources(skill: Pick<Skill, 'dir'>): string[] {
  const out: string[] = [];
  for (const folder of SKILL_RESOURCE_FOLDERS) {
    const dir = join(skill.dir, folder);
    if (existsSync(dir) && statSync(dir).isDirectory()) walk(dir, out);
  }
  return out.map((path) => relative(skill.dir, path).split(sep).join('/')).sort();
}

/**
 * Reads one resource of a skill. The path must be inside `references/`, `scripts/` or `assets/`
 * of that skill; `..`, absolute paths elsewhere and symlinks out are refused (`forbidden`).
 *
 * @example
 * readSkillResource(skill, 'references/checklist.md');
 */
export function readSkillResource(skill: Pick<Skill, 'dir' | 'name'>, path: string): string {
  const folder = createWorkspace(skill.dir);
  const real = folder.resolve(path);
  const top = folder.relative(real).split('/')[0] ?? '';
  if (!(SKILL_RESOURCE_FOLDERS as readonly string[]).includes(top)) {
    throw new CohortError(
      'forbidden',
      `Skill "${skill.name}" resources live under ${SKILL_RESOURCE_FOLDERS.join('/, ')}/; "${path}" is not one of them.`,
      { field: 'path' },
    );
  }
  if (!statSync(real).isFile()) {
    throw new CohortError(
      'invalid_input',
      `"${path}" is a folder; list the skill's resources to pick a file.`,
      {
        field: 'path',
      },
    );
  }
  return readFileSync(real, 'utf8');
}
