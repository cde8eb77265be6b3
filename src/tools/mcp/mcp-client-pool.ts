import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { boundedCall } from '../../bounded-call/index.js';
import { CohortError } from '../../errors/index.js';
import type { McpServerConfig, McpServers } from '../../schema/index.js';
import { silentLogger, type Logger } from '../../telemetry/index.js';
import { boundedMcpFetch } from './bounded-fetch.js';
import { unusableToolName } from './mcp-tool-name.js';
import { stdioProcessTransport } from './stdio-process-transport.js';

/** How long a server may take to start and list its tools before it is reported as failed. */
export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 15_000;
/** How long one tool call may take. */
export const DEFAULT_MCP_CALL_TIMEOUT_MS = 120_000;

/** A configured server as `cohort mcp list` shows it. */
export interface McpServerStatus {
  name: string;
  transport: 'stdio' | 'http';
  /** `connected`; `failed` when it did not start; `closed` when it died or was closed. */
  status: 'connected' | 'failed' | 'closed';
  /** Why it failed or closed. */
  error?: string;
  tools: { name: string; description: string }[];
  /**
   * Tools the server listed that no model is offered, each with why: a name a model's API refuses
   * (see `unusableToolName`), or a name listed twice. Absent when there are none.
   */
  skippedTools?: { name: string; reason: string }[];
}

/** A connected server's tool, ready to call. */
export interface McpRemoteTool {
  server: string;
  tool: Tool;
  call(args: unknown, options: { signal?: AbortSignal }): Promise<CallToolResult>;
}

/** The connections to every configured MCP server. */
export interface McpClientPool {
  statuses(): McpServerStatus[];
  /** The tools of the servers that are connected right now. */
  tools(): McpRemoteTool[];
  close(): Promise<void>;
}

interface Connection {
  status: McpServerStatus;
  client?: Client;
  tools: Tool[];
}

const transportOf = (config: McpServerConfig) => ('url' in config ? 'http' : 'stdio');

/**
 * The `${VAR}` a server's definition still holds: variables the environment did not set and the
 * definition gave no default (`${VAR:-value}`), which the configuration leaves as written.
 */
function unsetVariables(config: McpServerConfig): string[] {
  const strings =
    'url' in config
      ? [config.url, ...Object.values(config.headers)]
      : [config.command, ...config.args, ...Object.values(config.env), config.cwd ?? ''];
  const names = strings.flatMap((text) =>
    [...text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((match) => match[0]),
  );
  return [...new Set(names)];
}

function createTransport(
  name: string,
  config: McpServerConfig,
  cwd: string,
  onTooLarge: (error: CohortError) => void,
) {
  const unset = unsetVariables(config);
  if (unset.length > 0) {
    const first = unset[0] ?? '';
    throw new CohortError(
      'invalid_input',
      `${unset.join(', ')} ${unset.length === 1 ? 'is' : 'are'} not set in the environment: set ${unset.length === 1 ? 'it' : 'them'}, or give the definition a default (${first.slice(0, -1)}:-value}).`,
    );
  }
  if ('url' in config) {
    let url: URL;
    try {
      url = new URL(config.url);
    } catch {
      throw new CohortError('invalid_input', `"${config.url}" is not a URL.`);
    }
    // fetch refuses any other scheme with 'fetch failed', which names nothing.
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new CohortError(
        'invalid_input',
        `"${config.url}" is not an http or https URL (a streamable HTTP server's address, e.g. http://127.0.0.1:8787/mcp).`,
      );
    return new StreamableHTTPClientTransport(url, {
      requestInit: { headers: config.headers },
      fetch: boundedMcpFetch(name, { onTooLarge }),
    });
  }
  return stdioProcessTransport({
    command: config.command,
    args: config.args,
    // The SDK's safe default environment (PATH, HOME…) plus the server's own; not all of ours.
    env: { ...getDefaultEnvironment(), ...config.env },
    cwd: config.cwd ?? cwd,
  });
}

/**
 * A server's tools split into those a model can be offered and those it cannot (see
 * {@link unusableToolName}; a name listed again keeps its first tool). A server chooses its tools'
 * names, and a model's API refuses a whole request whose tools hold one it does not take.
 */
function partitionTools(
  server: string,
  tools: Tool[],
): { usable: Tool[]; skipped: { name: string; reason: string }[] } {
  const usable: Tool[] = [];
  const skipped: { name: string; reason: string }[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    const reason = seen.has(tool.name)
      ? 'the server lists a tool of this name twice; the first is offered'
      : unusableToolName(server, tool.name);
    if (reason) skipped.push({ name: tool.name, reason });
    else {
      seen.add(tool.name);
      usable.push(tool);
    }
  }
  return { usable, skipped };
}

/**
 * Most MCP tools offered to a model, all servers together: OpenAI refuses a whole request whose
 * tools are more than 128 ("Invalid 'tools': array too long"), cohort's own tools included (at
 * most 16 in an agent), so servers of many tools failed every model call of every agent.
 */
export const MAX_OFFERED_MCP_TOOLS = 112;

/**
 * Leaves out the tools past {@link MAX_OFFERED_MCP_TOOLS}, in the order of the servers and of each
 * server's list, naming each as a skipped tool of its server with why.
 */
function capOfferedTools(connections: Iterable<Connection>, logger: Logger): void {
  let offered = 0;
  for (const connection of connections) {
    if (connection.status.status !== 'connected') continue;
    const room = Math.max(0, MAX_OFFERED_MCP_TOOLS - offered);
    offered += Math.min(room, connection.tools.length);
    if (connection.tools.length <= room) continue;
    const left = connection.tools.slice(room);
    const reason = `cohort offers a model at most ${MAX_OFFERED_MCP_TOOLS} MCP tools in all (a model's API takes at most 128 tools in a request, cohort's own included), and the servers before it in the configuration filled them: name fewer servers, or this one earlier`;
    for (const tool of left)
      logger.warn('mcp_tool_skipped', { server: connection.status.name, tool: tool.name, reason });
    connection.tools = connection.tools.slice(0, room);
    connection.status = {
      ...connection.status,
      tools: connection.status.tools.slice(0, room),
      skippedTools: [
        ...(connection.status.skippedTools ?? []),
        ...left.map((tool) => ({ name: tool.name, reason })),
      ],
    };
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Characters of a failed server's stderr its status quotes. */
const STDERR_NOTE_CHARS = 300;

/**
 * The end of what a server that did not start wrote to stderr, on one line: 'Connection closed'
 * alone does not say that its token was missing or its package not found.
 */
function stderrNote(tail: string): string {
  const text = tail.trim().replace(/\s*\n\s*/g, ' / ');
  if (!text) return '';
  const end = text.length > STDERR_NOTE_CHARS ? `…${text.slice(-STDERR_NOTE_CHARS)}` : text;
  return ` (its stderr ends: ${end})`;
}

/**
 * Connects to every configured MCP server in parallel and lists its tools. A server that does not
 * start (or does not answer within `timeoutMs`) is reported `failed` with the reason, logged, and
 * left out; one that dies later is marked `closed` and its tools disappear from `tools()`. The
 * run goes on either way.
 *
 * @example
 * const pool = await connectMcpServers(loadMcpServers({ cwd, configured: config.mcpServers }));
 * console.table(pool.statuses());
 * await pool.close();
 */
export async function connectMcpServers(
  servers: McpServers,
  options: { cwd?: string; logger?: Logger; timeoutMs?: number; callTimeoutMs?: number } = {},
): Promise<McpClientPool> {
  const logger = options.logger ?? silentLogger;
  const timeoutMs = options.timeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS;
  const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS;
  const cwd = options.cwd ?? process.cwd();
  const connections = new Map<string, Connection>();

  await Promise.all(
    Object.entries(servers).map(async ([name, config]) => {
      const connection: Connection = {
        status: { name, transport: transportOf(config), status: 'failed', tools: [] },
        tools: [],
      };
      connections.set(name, connection);
      const client = new Client({ name: 'cohort', version: '1' });
      // A message cut at its size bound: the connection is closed, and this is why.
      let cut: CohortError | undefined;
      const onTooLarge = (error: CohortError) => {
        cut = error;
        void client.close().catch(() => undefined);
      };
      let stderrTail = () => '';
      try {
        const transport = createTransport(name, config, cwd, onTooLarge);
        if ('stderrTail' in transport) stderrTail = transport.stderrTail;
        const ready = (async () => {
          await client.connect(transport, { timeout: timeoutMs });
          return (await client.listTools(undefined, { timeout: timeoutMs })).tools;
        })();
        const tools = await boundedCall(() => ready, {
          what: `MCP server "${name}"`,
          timeoutMs,
          toError: (cause, { timedOut }) =>
            timedOut
              ? new CohortError('timeout', `no answer within ${timeoutMs} ms`)
              : new CohortError('model_unavailable', messageOf(cause), { cause }),
        });
        const { usable, skipped } = partitionTools(name, tools);
        for (const tool of skipped)
          logger.warn('mcp_tool_skipped', { server: name, tool: tool.name, reason: tool.reason });
        connection.client = client;
        connection.tools = usable;
        connection.status = {
          ...connection.status,
          status: 'connected',
          tools: usable.map((tool) => ({ name: tool.name, description: tool.description ?? '' })),
          ...(skipped.length > 0 ? { skippedTools: skipped } : {}),
        };
        client.onclose = () => {
          if (connection.status.status !== 'connected') return;
          connection.status = {
            ...connection.status,
            status: 'closed',
            error: cut?.message ?? 'the server closed the connection',
          };
          logger.warn('mcp_server_closed', { server: name });
        };
      } catch (error) {
        await client.close().catch(() => undefined);
        connection.status = {
          ...connection.status,
          status: 'failed',
          error: `did not start: ${messageOf(cut ?? error)}${stderrNote(stderrTail())}`,
        };
        logger.warn('mcp_server_failed', { server: name, cause: messageOf(cut ?? error) });
      }
    }),
  );

  capOfferedTools(connections.values(), logger);
  return {
    statuses: () => [...connections.values()].map((connection) => connection.status),
    tools: () =>
      [...connections.entries()].flatMap(([server, connection]) =>
        connection.status.status === 'connected' && connection.client
          ? connection.tools.map((tool) => ({
              server,
              tool,
              call: async (args: unknown, callOptions: { signal?: AbortSignal }) => {
                if (connection.status.status !== 'connected' || !connection.client)
                  throw new CohortError(
                    'model_unavailable',
                    `MCP server "${server}" is no longer running (${connection.status.error ?? 'closed'}); its tools were dropped.`,
                  );
                return (await connection.client.callTool(
                  { name: tool.name, arguments: (args ?? {}) as Record<string, unknown> },
                  undefined,
                  {
                    timeout: callTimeoutMs,
                    ...(callOptions.signal ? { signal: callOptions.signal } : {}),
                  },
                )) as CallToolResult;
              },
            }))
          : [],
      ),
    async close() {
      for (const connection of connections.values()) {
        if (connection.status.status === 'connected')
          connection.status = { ...connection.status, status: 'closed', error: 'closed by cohort' };
      }
      await Promise.all(
        [...connections.values()].map((connection) =>
          connection.client?.close().catch(() => undefined),
        ),
      );
    },
  };
}
