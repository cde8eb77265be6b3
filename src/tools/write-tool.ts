import * as z from 'zod';
import { CohortError } from '../errors/index.js';
import { writeInside } from './open-inside.js';
import { toolFailure, type CohortTool, type ToolOutcome } from './tool.js';
import type { Workspace } from './workspace.js';
import { lazySchema } from '../schema/lazy-schema.js';
import { fileText } from '../schema/file-text.js';

const WriteInput = lazySchema(() =>
  z.object({
    path: fileText('path')
      .min(1)
      .describe('File to write, relative to the workspace. Folders are created.'),
    content: fileText('content').describe('The whole new content of the file.'),
  }),
);
type WriteInput = z.infer<typeof WriteInput>;
/** What `write` returns. */
export type WriteResult = ToolOutcome<{ path: string; bytes: number; created: boolean }>;

/**
 * The `write` tool: creates or replaces a file inside the workspace. `accept` narrows which paths
 * (relative to the workspace) may be written; it returns a reason when a path is refused.
 *
 * @example
 * const tool = createWriteTool(createWorkspace('.'));
 * await tool.execute({ path: 'notes/todo.md', content: '# Todo\n' }, {});
 */
export function createWriteTool(
  workspace: Workspace,
  options: {
    name?: string;
    description?: string;
    accept?: (relativePath: string) => string | undefined;
  } = {},
): CohortTool<WriteInput, WriteResult> {
  return {
    name: options.name ?? 'write',
    description:
      options.description ??
      'Create or overwrite a file in the workspace with the given content. Prefer edit for small changes.',
    inputSchema: WriteInput,
    async execute({ path, content }) {
      try {
        const real = workspace.resolve(path, { mustExist: false });
        const relativePath = workspace.relative(real);
        const refusal = options.accept?.(relativePath);
        if (refusal) throw new CohortError('forbidden', refusal, { field: 'path' });
        const { created } = await writeInside(workspace, path, content);
        return { ok: true, path: relativePath, bytes: Buffer.byteLength(content), created };
      } catch (error) {
        return toolFailure(error);
      }
    },
  };
}

/**
 * The designer's `write_doc` tool: like `write`, but only for markdown files under `docs/`.
 *
 * @example
 * const tool = createWriteDocTool(createWorkspace('.'));
 * await tool.execute({ path: 'docs/architecture.md', content: '# Architecture\n' }, {});
 */
export function createWriteDocTool(workspace: Workspace): CohortTool<WriteInput, WriteResult> {
  return createWriteTool(workspace, {
    name: 'write_doc',
    description:
      'Create or overwrite a markdown document under docs/ (e.g. docs/design.md). Other paths are refused.',
    accept: (relativePath) =>
      relativePath.startsWith('docs/') && relativePath.toLowerCase().endsWith('.md')
        ? undefined
        : `write_doc only writes markdown files under docs/ (got "${relativePath}").`,
  });
}
