import type { LoopTool } from './types.js';

/**
 * Declares a tool with its input type inferred from the zod schema, ready for `runLoop`.
 *
 * @example
 * const add = defineTool({
 *   name: 'add',
 *   description: 'Adds two numbers.',
 *   inputSchema: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 */
export function defineTool<Input, Output>(tool: LoopTool<Input, Output>): LoopTool {
  // The loop validates input with the tool's own schema before calling it, so the erased type is safe.
  return tool as unknown as LoopTool;
}
