import * as z from 'zod';
import { CohortError } from '../errors/index.js';
import { toolFailure, type CohortTool, type ToolOutcome } from './tool.js';
import type { Workspace } from './workspace.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** Folders no file tool walks into: they are large and never the answer. */
export const IGNORED_FOLDERS = ['**/node_modules/**', '**/.git/**'];
/** Most paths one glob call returns. */
export const GLOB_MAX_RESULTS = 500;

const GlobInput = lazySchema(() =>
  z.object({
    pattern: z.string().min(1).describe('Glob pattern, e.g. "src/**/*.ts" or "**/README.md".'),
    path: z
      .string()
      .optional()
      .describe('Folder to search in, relative to the workspace (default: root).'),
  }),
);
type GlobInput = z.infer<typeof GlobInput>;
/** What `glob` returns: matching file paths relative to the workspace, sorted. */
export type GlobResult = ToolOutcome<{ files: string[]; truncated: boolean }>;

/**
 * Most single `*` wildcards one part of a pattern may hold. Each compiles to `.*`-like code that
 * backtracks: with k of them, matching a file name of n characters takes about n^k steps, and the
 * model writes both the pattern and (through bash or write) the file names. Five of them against
 * one 250-character name ran for hours on the event loop; two cost at most ~65,000 steps.
 */
export const MAX_WILDCARDS_PER_PART = 2;

/**
 * Refuses patterns that would reach outside the search folder, and patterns whose matching could
 * run for hours (more than {@link MAX_WILDCARDS_PER_PART} `*` in one path part).
 */
export function assertRelativePattern(pattern: string): void {
  const crowded = pattern
    .split(/[\\/]+/)
    .find((part) => part.replaceAll('**', '').split('*').length - 1 > MAX_WILDCARDS_PER_PART);
  if (crowded !== undefined) {
    throw new CohortError(
      'invalid_input',
      `Pattern "${pattern}" has more than ${MAX_WILDCARDS_PER_PART} "*" in "${crowded}": matching it could take hours on long file names. Use at most ${MAX_WILDCARDS_PER_PART} per path part (e.g. "**/*test*"), or grep for the text.`,
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
        const files = found
          .filter((file) => insideWorkspace(workspace, file))
          .map((file) => workspace.relative(file))
          .sort();
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
