import { fileURLToPath } from 'node:url';

/**
 * How a test starts `fixture-mcp-server.ts` (the `calc` server: add, whoami, crash) over stdio,
 * as an `.mcp.json` entry or a `connectMcpServers` config.
 */
export const CALC_MCP_SERVER = {
  command: process.execPath,
  args: ['--import', 'tsx', fileURLToPath(new URL('./fixture-mcp-server.ts', import.meta.url))],
  env: { FIXTURE_NAME: 'calc-fixture' },
  // tsx resolves from the repository, whatever folder the test runs cohort in.
  cwd: process.cwd(),
};
