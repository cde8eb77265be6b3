/** One tool as a test MCP server lists it. */
export interface ListedTool {
  name: string;
  inputSchema?: Record<string, unknown>;
}

/**
 * How a test starts a bare MCP server over stdio (raw JSON-RPC, one message a line) that lists
 * `tools` as given, names and input schemas a real SDK server would refuse to send included, and
 * answers every other request with an empty result: a hostile or careless server's tool list.
 *
 * @example
 * const pool = await connectMcpServers({ odd: listingMcpServer([{ name: 'a.b' }]) });
 */
export function listingMcpServer(tools: ListedTool[]) {
  const listed = tools.map((tool) => ({
    name: tool.name,
    inputSchema: tool.inputSchema ?? { type: 'object' },
  }));
  const source = `
    const tools = ${JSON.stringify(listed)};
    const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
    let buffer = '';
    process.stdin.on('data', (chunk) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\\n')) >= 0) {
        const message = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (message.id === undefined) continue;
        if (message.method === 'initialize')
          send({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'listing', version: '1' } } });
        else if (message.method === 'tools/list')
          send({ jsonrpc: '2.0', id: message.id, result: { tools } });
        else send({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'called' }] } });
      }
    });`;
  return { command: process.execPath, args: ['-e', source], env: {} };
}
