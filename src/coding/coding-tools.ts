import type { CohortConfig } from '../config/index.js';
import {
  createBashTool,
  createEditTool,
  createGlobTool,
  createGrepTool,
  createReadTool,
  createWebFetchTool,
  createWebSearchTool,
  createWriteDocTool,
  createWriteTool,
  type CohortTool,
  type HostLookup,
  type Workspace,
} from '../tools/index.js';
import { hiddenFromTools } from './hidden-files.js';

/** Names of every tool the coding assistant has, in the order they are offered. */
export const CODING_TOOL_NAMES = [
  'glob',
  'grep',
  'read',
  'write',
  'edit',
  'write_doc',
  'bash',
  'web_search',
  'web_fetch',
] as const;

/**
 * Every coding-assistant tool bound to one workspace and the `tools` config section: file tools
 * confined to the workspace, `bash` in the bubblewrap sandbox (`sandbox` section) with its timeout, web tools with the
 * Tavily settings and the private-network guard. `fetch`, `lookup` and `parentEnv` are for tests.
 *
 * @example
 * const tools = createCodingTools({ workspace: createWorkspace('.'), config: loadConfig() });
 * await tools.read.execute({ path: 'package.json' }, {});
 */
export function createCodingTools(options: {
  workspace: Workspace;
  config: CohortConfig;
  fetch?: typeof fetch;
  lookup?: HostLookup;
  parentEnv?: Record<string, string | undefined>;
  /** Home folder for the sandbox's `~/…` deny entries (tests). */
  home?: string;
}): Record<(typeof CODING_TOOL_NAMES)[number], CohortTool> & Record<string, CohortTool> {
  const { workspace, config } = options;
  const maxOutputChars = config.tools.maxOutputChars;
  const tools = [
    createGlobTool(workspace),
    createGrepTool(workspace),
    createReadTool(workspace, { maxOutputChars }),
    createWriteTool(workspace),
    createEditTool(workspace),
    createWriteDocTool(workspace),
    createBashTool(workspace, {
      timeoutSeconds: config.tools.bashTimeoutSeconds,
      maxOutputChars,
      sandbox: {
        ...config.sandbox,
        denyRead: [...config.sandbox.denyRead, ...hiddenFromTools(config)],
      },
      ...(options.parentEnv ? { parentEnv: options.parentEnv } : {}),
      ...(options.home ? { home: options.home } : {}),
    }),
    createWebSearchTool({
      apiKey: config.tools.tavilyApiKey,
      baseUrl: config.tools.tavilyBaseUrl,
      timeoutMs: config.research.timeoutWebSearch * 1000,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }),
    createWebFetchTool({
      allowPrivateNetwork: config.tools.allowPrivateNetwork,
      timeoutMs: config.research.timeoutWebSearch * 1000,
      maxOutputChars,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.lookup ? { lookup: options.lookup } : {}),
    }),
  ] as CohortTool[];
  return Object.fromEntries(tools.map((tool) => [tool.name, tool])) as ReturnType<
    typeof createCodingTools
  >;
}
