import * as z from 'zod';
import { CohortError } from '../errors/index.js';
import { readInside, writeInside } from './open-inside.js';
import { toolFailure, type CohortTool, type ToolOutcome } from './tool.js';
import type { Workspace } from './workspace.js';
import { lazySchema } from '../schema/lazy-schema.js';
import { fileText } from '../schema/file-text.js';

const EditInput = lazySchema(() =>
  z.object({
    path: fileText('path').min(1).describe('File to change, relative to the workspace.'),
    oldText: fileText('oldText')
      .min(1)
      .describe('Exact text to replace; must occur once unless replaceAll.'),
    newText: fileText('newText').describe('Replacement text.'),
    replaceAll: z.boolean().optional().describe('Replace every occurrence.'),
  }),
);
type EditInput = z.infer<typeof EditInput>;
/**
 * Largest file `edit` changes, in bytes (32 MB): it holds the file, its text and the changed text
 * in memory at once. A larger file is refused by the open file's size, before a byte is read.
 */
export const EDIT_MAX_BYTES = 32 * 1024 * 1024;
/** What `edit` returns. */
export type EditResult = ToolOutcome<{ path: string; replacements: number }>;

/** Reads UTF-8 strictly; a byte-order mark is kept, so the file is written back as it was. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The file's text, or an `invalid_input` error when it is not UTF-8: decoded leniently and written
 * back, every byte that is not UTF-8 anywhere in the file (a Latin-1 'café' in a comment, a
 * UTF-16 file) became U+FFFD, not only the text the edit changed.
 */
function utf8Text(buffer: Buffer, path: string): string {
  try {
    return STRICT_UTF8.decode(buffer);
  } catch {
    throw new CohortError(
      'invalid_input',
      `"${path}" is not UTF-8 text (another encoding such as Latin-1 or UTF-16, or binary): edit changes UTF-8 files only, since writing it back would replace each byte that is not UTF-8 with U+FFFD; change it with bash (sed, iconv, a script) instead.`,
      { field: 'path' },
    );
  }
}

/**
 * The `edit` tool: replaces an exact piece of text in a workspace file. An absent or ambiguous
 * `oldText` is an error the model can fix (read the file again, give more context).
 *
 * @example
 * const tool = createEditTool(createWorkspace('.'));
 * await tool.execute({ path: 'src/a.ts', oldText: 'let x = 1', newText: 'const x = 1' }, {});
 */
export function createEditTool(workspace: Workspace): CohortTool<EditInput, EditResult> {
  return {
    name: 'edit',
    description:
      'Replace exact text in a workspace file. oldText must match exactly once (include surrounding lines) unless replaceAll is true.',
    inputSchema: EditInput,
    async execute({ path, oldText, newText, replaceAll }) {
      try {
        const { real, buffer, isDirectory } = await readInside(workspace, path, {
          maxBytes: EDIT_MAX_BYTES,
          tooLarge: `edit changes files of at most ${EDIT_MAX_BYTES / (1024 * 1024)} MB; change a larger one with bash (sed, a script), or read the part you need with read`,
        });
        if (isDirectory)
          throw new CohortError('invalid_input', `"${path}" is a folder, not a file.`, {
            field: 'path',
          });
        const content = utf8Text(buffer, path);
        const count = content.split(oldText).length - 1;
        if (count === 0) {
          throw new CohortError(
            'not_found',
            `oldText was not found in "${path}"; read the file and copy the text exactly.`,
            {
              field: 'oldText',
            },
          );
        }
        if (count > 1 && !replaceAll) {
          throw new CohortError(
            'conflict',
            `oldText occurs ${count} times in "${path}"; add surrounding lines to make it unique or set replaceAll.`,
            { field: 'oldText' },
          );
        }
        const updated = replaceAll
          ? content.split(oldText).join(newText)
          : content.replace(oldText, () => newText);
        await writeInside(workspace, path, updated);
        return { ok: true, path: workspace.relative(real), replacements: replaceAll ? count : 1 };
      } catch (error) {
        return toolFailure(error);
      }
    },
  };
}
