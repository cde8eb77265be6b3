/** The name a model sees for an MCP tool, as in Claude Code: `mcp__<server>__<tool>`. */
export const mcpToolName = (server: string, tool: string) => `mcp__${server}__${tool}`;

/**
 * What a model's API takes as a tool name: OpenAI refuses a whole request whose `tools` hold any
 * other (`tools[n].function.name` must match this), so one such tool failed every call.
 */
const MODEL_TOOL_NAME = /^[A-Za-z0-9_-]+$/;
/** The longest tool name a model's API takes. */
export const MAX_MODEL_TOOL_NAME_LENGTH = 64;

/**
 * Why a server's tool cannot be offered to a model under its name `mcp__<server>__<tool>`, or
 * undefined when it can: the name holds a character a model's API refuses, or is too long with
 * its prefix. An MCP server chooses its tools' names; cohort leaves such a tool out and says why.
 *
 * @example
 * unusableToolName('github', 'create_issue'); // undefined
 * unusableToolName('docs', 'search.pages'); // 'its name holds characters … ("." is not one)'
 */
export function unusableToolName(server: string, tool: string): string | undefined {
  const name = mcpToolName(server, tool);
  if (tool.length === 0) return 'it has no name';
  if (!MODEL_TOOL_NAME.test(tool)) {
    const odd = [...tool].find((char) => !MODEL_TOOL_NAME.test(char)) ?? '';
    return `its name may hold only letters, digits, "_" or "-", as a model's API requires (${JSON.stringify(odd)} is not one)`;
  }
  if (name.length > MAX_MODEL_TOOL_NAME_LENGTH)
    return `its name ${name.slice(0, 80)}${name.length > 80 ? '…' : ''} is ${name.length} characters, over the ${MAX_MODEL_TOOL_NAME_LENGTH} a model's API takes`;
  return undefined;
}
