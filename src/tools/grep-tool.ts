import { stat } from 'node:fs/promises';
import * as z from 'zod';
import { CohortError } from '../errors/index.js';
import { assertRelativePattern, IGNORED_FOLDERS } from './glob-tool.js';
import { startLineMatcher, type LineMatcher } from './line-matcher.js';
import { readInside } from './open-inside.js';
import { toolFailure, type CohortTool, type ToolOutcome } from './tool.js';
import type { Workspace } from './workspace.js';
import { fileText } from '../schema/file-text.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** Files larger than this are skipped by grep (generated or data files). */
export const GREP_MAX_FILE_BYTES = 1024 * 1024;
/** Default and highest number of matching lines one grep call returns. */
export const GREP_MAX_MATCHES = 200;
const LINE_MAX_CHARS = 300;

const GrepInput = lazySchema(() =>
  z.object({
    pattern: z.string().min(1).describe('JavaScript regular expression to search for.'),
    path: fileText('path')
      .optional()
      .describe('File or folder to search, relative to the workspace (default: root).'),
    include: z.string().optional().describe('Only files matching this glob, e.g. "**/*.ts".'),
    ignoreCase: z.boolean().optional(),
    maxMatches: z.number().int().min(1).max(GREP_MAX_MATCHES).optional(),
  }),
);
type GrepInput = z.infer<typeof GrepInput>;
/** One matching line. */
export interface GrepMatch {
  file: string;
  line: number;
  text: string;
}
/** What `grep` returns. */
export type GrepResult = ToolOutcome<{
  matches: GrepMatch[];
  filesSearched: number;
  truncated: boolean;
}>;

const compile = (pattern: string, flags: string) => {
  try {
    return new RegExp(pattern, flags);
  } catch (cause) {
    throw new CohortError(
      'invalid_input',
      `Invalid regular expression "${pattern}": ${(cause as Error).message}`,
      {
        field: 'pattern',
        cause,
      },
    );
  }
};

/**
 * The `grep` tool: searches file contents by regular expression inside the workspace, skipping
 * binary and very large files and anything a symlink would take outside the workspace.
 *
 * @example
 * const tool = createGrepTool(createWorkspace('.'));
 * await tool.execute({ pattern: 'export function', include: '**\/*.ts' }, {});
 */
export function createGrepTool(
  workspace: Workspace,
  options: { regexBudgetMs?: number } = {},
): CohortTool<GrepInput, GrepResult> {
  return {
    name: 'grep',
    description:
      'Search file contents with a regular expression inside the workspace. Returns file, line number and line text.',
    inputSchema: GrepInput,
    async execute(input, { signal }) {
      let matcher: LineMatcher | undefined;
      try {
        const flags = input.ignoreCase ? 'i' : '';
        compile(input.pattern, flags);
        const limit = input.maxMatches ?? GREP_MAX_MATCHES;
        if (input.include) assertRelativePattern(input.include);
        const target = workspace.resolve(input.path ?? '.');
        // Loaded with the first search, not by `import('cohort')` (with picomatch, its matcher).
        const { glob } = await import('tinyglobby');
        const files = (await stat(target)).isFile()
          ? [target]
          : (
              await glob(input.include ?? '**/*', {
                cwd: target,
                ignore: IGNORED_FOLDERS,
                followSymbolicLinks: false,
                onlyFiles: true,
                absolute: true,
              })
            ).sort();
        // The pattern is the model's: it runs off the main thread, within a time budget.
        matcher = startLineMatcher(input.pattern, flags, {
          ...(options.regexBudgetMs !== undefined ? { budgetMs: options.regexBudgetMs } : {}),
          ...(signal ? { signal } : {}),
        });
        const matches: GrepMatch[] = [];
        let searched = 0;
        for (const file of files) {
          if (signal?.aborted) throw new CohortError('aborted', 'grep was cancelled.');
          let buffer: Buffer;
          try {
            const real = workspace.resolve(file);
            const info = await stat(real);
            if (!info.isFile() || info.size > GREP_MAX_FILE_BYTES) continue;
            buffer = (await readInside(workspace, file, { maxBytes: GREP_MAX_FILE_BYTES })).buffer;
          } catch {
            continue; // a symlink or hard link out of the workspace: not ours to read
          }
          if (buffer.subarray(0, 8000).includes(0)) continue; // binary
          searched += 1;
          const text = buffer.toString('utf8');
          // One more than the room left, to know whether the answer is cut.
          const hits = await matcher.match(text, limit - matches.length + 1);
          if (hits.length === 0) continue;
          const lines = text.split(/\r?\n/);
          for (const index of hits) {
            if (matches.length >= limit) {
              return { ok: true, matches, filesSearched: searched, truncated: true };
            }
            matches.push({
              file: workspace.relative(file),
              line: index + 1,
              text: (lines[index] ?? '').slice(0, LINE_MAX_CHARS),
            });
          }
        }
        return { ok: true, matches, filesSearched: searched, truncated: false };
      } catch (error) {
        return toolFailure(error);
      } finally {
        await matcher?.close();
      }
    },
  };
}
