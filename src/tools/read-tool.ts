import { z } from 'zod';
import { CohortError } from '../errors/index.js';
import { readInside } from './open-inside.js';
import { toolFailure, type CohortTool, type ToolOutcome } from './tool.js';
import { DEFAULT_MAX_OUTPUT_CHARS, truncateText } from './truncate-text.js';
import type { Workspace } from './workspace.js';

/** Lines one read returns unless the caller asks for fewer. */
export const READ_DEFAULT_LINES = 2000;

const ReadInput = z.object({
  path: z.string().min(1).describe('File to read, relative to the workspace.'),
  offset: z.number().int().min(1).optional().describe('First line to read (1-based).'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Lines to read (default ${READ_DEFAULT_LINES}).`),
});
type ReadInput = z.infer<typeof ReadInput>;
/** What `read` returns: the lines, numbered, and how many the file has. */
export type ReadResult = ToolOutcome<{
  path: string;
  content: string;
  totalLines: number;
  truncated: boolean;
}>;

/**
 * The `read` tool: reads a text file inside the workspace, with line numbers.
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
    description:
      'Read a text file in the workspace. Returns numbered lines; use offset/limit for long files.',
    inputSchema: ReadInput,
    async execute({ path, offset, limit }) {
      try {
        const { real, buffer, isDirectory } = await readInside(workspace, path);
        if (isDirectory) {
          throw new CohortError(
            'invalid_input',
            `"${path}" is a folder; use glob to list its files.`,
            {
              field: 'path',
            },
          );
        }
        if (buffer.subarray(0, 8000).includes(0)) {
          throw new CohortError(
            'invalid_input',
            `"${path}" is a binary file; read only reads text.`,
            {
              field: 'path',
            },
          );
        }
        const lines = buffer.toString('utf8').split(/\r?\n/);
        const first = (offset ?? 1) - 1;
        const chosen = lines.slice(first, first + (limit ?? READ_DEFAULT_LINES));
        const numbered = chosen
          .map((line, index) => `${String(first + index + 1).padStart(6)}\t${line}`)
          .join('\n');
        const { text, truncated } = truncateText(numbered, maxChars);
        return {
          ok: true,
          path: workspace.relative(real),
          content: text,
          totalLines: lines.length,
          truncated: truncated || first + chosen.length < lines.length,
        };
      } catch (error) {
        return toolFailure(error);
      }
    },
  };
}
