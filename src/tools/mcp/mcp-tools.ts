import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { CohortError } from '../../errors/index.js';
import { GEN_AI, type TraceSpan } from '../../telemetry/index.js';
import { DEFAULT_MAX_OUTPUT_CHARS, truncateText } from '../truncate-text.js';
import type { McpClientPool, McpRemoteTool } from './mcp-client-pool.js';
import { mcpToolName } from './mcp-tool-name.js';
import { lazySchema } from '../../schema/lazy-schema.js';

export { mcpToolName };

/**
 * Decides whether an MCP tool call may run: `undefined` lets it run, a string refuses it with
 * that reason (the model reads it). The coding assistant passes its permission rules here.
 */
export type McpToolPermission = (toolName: string, input: unknown) => string | undefined;

/** Anything an MCP server sends is accepted as an object; the server validates its own input. */
const AnyInput = lazySchema(() => z.record(z.string(), z.unknown()));

/** Keywords whose value is one schema. */
const SCHEMA_KEYWORDS = new Set([
  'items',
  'additionalItems',
  'contains',
  'additionalProperties',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LIST_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS = new Set(['properties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * A server's JSON Schema without its regular expressions (`pattern`, `patternProperties`, and the
 * `additionalProperties` beside them, which would refuse what they allowed): those are the
 * server's, and run on the model's text on the main thread, where `(a+)+$` against a long string
 * blocked the process for minutes. Only schema keywords are walked, so a property named `pattern`
 * and the data of `enum`, `const` or `default` stay as written.
 */
function withoutPatterns(schema: unknown): unknown {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const node = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'pattern' || key === 'patternProperties') continue;
    if (key === 'additionalProperties' && 'patternProperties' in node) continue;
    if (SCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value))
      out[key] = value.map(withoutPatterns);
    else if (SCHEMA_KEYWORDS.has(key)) out[key] = withoutPatterns(value);
    else if (SCHEMA_MAP_KEYWORDS.has(key) && value !== null && typeof value === 'object')
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, inner]) => [name, withoutPatterns(inner)]),
      );
    else out[key] = value;
  }
  return out;
}

/**
 * The check of a model's arguments to a server's tool: the shape its schema gives, without the
 * schema's regular expressions (see {@link withoutPatterns}). A schema zod cannot build, or one
 * that throws while checking (a `$ref` to itself: "Maximum call stack size exceeded"), leaves the
 * check to the server.
 */
function inputSchemaOf(remote: McpRemoteTool): z.ZodType {
  let shape: z.ZodType;
  try {
    shape = z.fromJSONSchema(
      withoutPatterns(remote.tool.inputSchema) as Parameters<typeof z.fromJSONSchema>[0],
    );
  } catch {
    return AnyInput;
  }
  return z.unknown().transform((value, context) => {
    let result: ReturnType<z.ZodType['safeParse']>;
    try {
      result = shape.safeParse(value);
    } catch {
      return value;
    }
    if (result.success) return result.data;
    for (const issue of result.error.issues)
      context.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  });
}

/** What the model reads back: the text parts, or the structured content when there is no text. */
function outputOf(result: CallToolResult): string {
  const text = result.content
    .map((item) => (item.type === 'text' ? item.text : `[${item.type}]`))
    .join('\n');
  if (text.trim()) return text;
  return result.structuredContent ? JSON.stringify(result.structuredContent) : '';
}

/** An MCP server's tool as the tool loop takes it (wrap it with `defineTool`). */
export interface McpTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: z.ZodType;
  readonly inputJsonSchema: Record<string, unknown>;
  execute(input: unknown, context: { signal: AbortSignal; span?: TraceSpan }): Promise<string>;
}

/**
 * The connected servers' tools as loop tools named `mcp__<server>__<tool>`, each call an `mcp
 * tools/call` span under the tool call's span. A tool error result, a refusal by `permit`, or a
 * server that died since is an error the model reads; the run goes on. What a call returns is
 * cut to `maxOutputChars` (default {@link DEFAULT_MAX_OUTPUT_CHARS}) as the other tools' output
 * is: a server's answer may be up to 10 MiB, and went into the model's prompt whole.
 *
 * @example
 * const tools = mcpTools(pool).map((tool) => defineTool(tool));
 * await runLoop({ model, messages, tools: [...tools, search], maxSteps: 6, timeoutMs: 60_000 });
 */
export function mcpTools(
  pool: Pick<McpClientPool, 'tools'>,
  options: { permit?: McpToolPermission; maxOutputChars?: number } = {},
): McpTool[] {
  const cut = (text: string) =>
    truncateText(text, options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS).text;
  return pool.tools().map((remote) => {
    const name = mcpToolName(remote.server, remote.tool.name);
    return {
      name,
      description: `${remote.tool.description ?? remote.tool.name} (MCP server "${remote.server}")`,
      inputSchema: inputSchemaOf(remote),
      inputJsonSchema: remote.tool.inputSchema as Record<string, unknown>,
      execute: async (input, context) => {
        const refusal = options.permit?.(name, input);
        if (refusal) throw new CohortError('forbidden', refusal);
        const span = context.span?.child(`mcp tools/call ${remote.tool.name}`, {
          'mcp.method.name': 'tools/call',
          'mcp.server': remote.server,
          [GEN_AI.toolName]: remote.tool.name,
        });
        try {
          const result = await remote.call(input, { signal: context.signal });
          const output = cut(outputOf(result));
          if (result.isError) throw new CohortError('internal', output || 'the MCP tool failed');
          return output;
        } catch (error) {
          span?.fail(error);
          throw error;
        } finally {
          span?.end();
        }
      },
    };
  });
}
