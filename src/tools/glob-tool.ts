import { join } from 'node:path';
import * as z from 'zod';
import { CohortError } from '../errors/index.js';
import { globCostProblem } from './glob-pattern-cost.js';
import { toolFailure, type CohortTool, type ToolOutcome } from './tool.js';
import type { Workspace } from './workspace.js';
import { fileText } from '../schema/file-text.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** Folders no file tool walks into: they are large and never the answer. */
export const IGNORED_FOLDERS = ['**/node_modules/**', '**/.git/**'];
/** Most paths one glob call returns. */
export const GLOB_MAX_RESULTS = 500;

const GlobInput = lazySchema(() =>
  z.object({
    pattern: z.string().min(1).describe('Glob pattern, e.g. "src/**/*.ts" or "**/README.md".'),
    path: fileText('path')
      .optional()
      .describe('Folder to search in, relative to the workspace (default: root).'),
  }),
);
type GlobInput = z.infer<typeof GlobInput>;
/** What `glob` returns: matching file paths relative to the workspace, sorted. */
export type GlobResult = ToolOutcome<{ files: string[]; truncated: boolean }>;

/**
 * Refuses patterns that would reach outside the search folder, and patterns whose matching could
 * run for hours (see {@link globCostProblem}).
 */
export function assertRelativePattern(pattern: string): void {
  const costly = globCostProblem(pattern);
  if (costly !== undefined) {
    throw new CohortError(
      'invalid_input',
      `Pattern "${pattern}" has ${costly}, or grep for the text.`,
      { field: 'pattern' },
    );
  }
  if (
    pattern.startsWith('/') ||
    /^[a-zA-Z]:[\\/]/.test(pattern) ||
    pattern.split(/[\\/]+/).includes('..') ||
    // `..{,}/x` spells a `..` segment through a brace; other spellings (`.{.,}/x`) are caught by
    // the check of every result.
    pattern.includes('..')
  ) {
    throw new CohortError(
      'forbidden',
      `Pattern "${pattern}" reaches outside the workspace; use a relative pattern without "..".`,
      { field: 'pattern' },
    );
  }
}

/** True when `file` (absolute) is inside the workspace, symlinks resolved. */
export function insideWorkspace(workspace: Workspace, file: string): boolean {
  try {
    workspace.resolve(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * The `glob` tool: lists files matching a pattern inside the workspace.
 *
 * @example
 * const tool = createGlobTool(createWorkspace('.'));
 * await tool.execute({ pattern: 'src/**\/*.ts' }, {});
 */
export function createGlobTool(workspace: Workspace): CohortTool<GlobInput, GlobResult> {
  return {
    name: 'glob',
    description:
      'Find files by glob pattern (e.g. "**/*.ts") inside the workspace. Returns paths relative to the workspace.',
    inputSchema: GlobInput,
    async execute({ pattern, path }) {
      try {
        assertRelativePattern(pattern);
        const base = workspace.resolve(path ?? '.');
        // Loaded with the first search, not by `import('cohort')` (with picomatch, its matcher).
        const { glob } = await import('tinyglobby');
        const found = await glob(pattern, {
          cwd: base,
          ignore: IGNORED_FOLDERS,
          followSymbolicLinks: false,
          onlyFiles: true,
          absolute: true,
        });
        // Brace and extglob forms (`..{,}/x`) can still climb out: keep only what resolves inside.
        // Checked in order, up to one past the cap: each check resolves the path's links on this
        // thread, and checking every match first took 12 s over a workspace of 100,000 files for
        // the 500 returned.
        const files: string[] = [];
        for (const file of found.map((path) => workspace.relative(path)).sort()) {
          if (!insideWorkspace(workspace, join(workspace.root, file))) continue;
          files.push(file);
          if (files.length > GLOB_MAX_RESULTS) break;
        }
        return {
          ok: true,
          files: files.slice(0, GLOB_MAX_RESULTS),
          truncated: files.length > GLOB_MAX_RESULTS,
        };
      } catch (error) {
        return toolFailure(error);
      }
    },
  };
}
