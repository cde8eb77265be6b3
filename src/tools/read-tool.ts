import * as z from 'zod';
import { CohortError } from '../errors/index.js';
import { withFileInside } from './open-inside.js';
import { READ_MAX_BYTES, readLineWindow } from './read-lines.js';
import { toolFailure, type CohortTool, type ToolOutcome } from './tool.js';
import { DEFAULT_MAX_OUTPUT_CHARS } from './truncate-text.js';
import type { Workspace } from './workspace.js';
import { lazySchema } from '../schema/lazy-schema.js';
import { fileText } from '../schema/file-text.js';

/** Lines one read returns unless the caller asks for fewer. */
export const READ_DEFAULT_LINES = 2000;

const ReadInput = lazySchema(() =>
  z.object({
    path: fileText('path').min(1).describe('File to read, relative to the workspace.'),
    offset: z.number().int().min(1).optional().describe('First line to read (1-based).'),
    limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(`Lines to read (default ${READ_DEFAULT_LINES}).`),
  }),
);
type ReadInput = z.infer<typeof ReadInput>;
/**
 * What `read` returns: the lines, numbered, and how many the file has (absent when the file is
 * longer than the {@link READ_MAX_BYTES} one read scans). `truncated` says lines are left out.
 */
export type ReadResult = ToolOutcome<{
  path: string;
  content: string;
  totalLines?: number;
  truncated: boolean;
}>;

/**
 * The `read` tool: reads a text file inside the workspace, with line numbers. The file is
 * streamed: only the lines asked for are kept (at most `maxOutputChars` characters of them, the
 * answer saying where to read on when cut), and at most {@link READ_MAX_BYTES} of it are scanned.
 *
 * @example
 * const tool = createReadTool(createWorkspace('.'));
 * await tool.execute({ path: 'package.json' }, {});
 */
export function createReadTool(
  workspace: Workspace,
  options: { maxOutputChars?: number } = {},
): CohortTool<ReadInput, ReadResult> {
  const maxChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  return {
    name: 'read',
    description: `Read a text file in the workspace. Returns numbered lines; use offset/limit for long files (one read returns at most ${maxChars} characters and scans at most the first ${READ_MAX_BYTES / 1024 / 1024} MB).`,
    inputSchema: ReadInput,
    async execute({ path, offset, limit }) {
      try {
        return await withFileInside(workspace, path, async ({ real, handle, isDirectory }) => {
          if (isDirectory) {
            throw new CohortError(
              'invalid_input',
              `"${path}" is a folder; use glob to list its files.`,
              { field: 'path' },
            );
          }
          const first = offset ?? 1;
          const window = await readLineWindow(handle, {
            offset: first,
            limit: limit ?? READ_DEFAULT_LINES,
            maxChars,
          });
          if (window.binary) {
            throw new CohortError(
              'invalid_input',
              `"${path}" is a binary file; read only reads text.`,
              { field: 'path' },
            );
          }
          const numbered = window.lines
            .map((line, index) => `${String(first + index).padStart(6)}\t${line}`)
            .join('\n');
          // Where to read on: the line that was cut (or never reached).
          const next = window.lines.length > 0 ? first + window.lines.length - 1 : first;
          const note =
            window.cut === 'chars'
              ? `\n… [cut at ${maxChars} characters, the most one read returns: line ${next} is not whole; read on with offset ${next}]`
              : window.cut === 'bytes'
                ? `\n… [stopped after the first ${READ_MAX_BYTES / 1024 / 1024} MB of the file, the most one read scans; use bash (sed -n '${next},+99p' or tail) for lines past it]`
                : '';
          return {
            ok: true,
            path: workspace.relative(real),
            content: numbered + note,
            ...(window.totalLines === undefined ? {} : { totalLines: window.totalLines }),
            truncated:
              window.cut !== undefined ||
              window.totalLines === undefined ||
              first - 1 + window.lines.length < window.totalLines,
          };
        });
      } catch (error) {
        return toolFailure(error);
      }
    },
  };
}
