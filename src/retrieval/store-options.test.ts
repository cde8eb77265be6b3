import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import { createLogger } from '../telemetry/index.js';
import { knowledgeStoreOptions } from './store-options.js';

describe('knowledgeStoreOptions', () => {
  it("logs an unsaved trace batch and a lost connection through the knowledge base's logger", () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', write: (line) => lines.push(line) });
    const options = knowledgeStoreOptions(loadConfig({ env: {} }), logger);
    options.onTraceError(new Error('disk full'), ['run-a', 'run-b']);
    options.onConnectionLost(new Error('terminating connection'));
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events[0]).toMatchObject({
      level: 'warn',
      event: 'trace_not_saved',
      runs: 2,
      cause: 'disk full',
    });
    expect(events[1]).toMatchObject({
      event: 'database_connection_lost',
      cause: 'terminating connection',
    });
  });
});
