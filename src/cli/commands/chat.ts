import { randomUUID } from 'node:crypto';
import { isCohortError } from '../../errors/index.js';
import type { CliCommand } from '../command.js';
import { parseCommandArgs, stringFlag } from '../args.js';
import { openForCli, STORE_FLAGS } from '../open.js';
import { describeRoute } from './describe-route.js';

const usage = 'cohort chat [--session ID] [--data-dir DIR]   (type /exit to leave)';

/** `cohort chat`: an interactive conversation kept in one session. */
export const chatCommand: CliCommand = {
  name: 'chat',
  summary: 'Talk with the book assistant; history is kept in the session',
  usage,
  async run(args, io) {
    const { values } = parseCommandArgs(
      args,
      { session: { type: 'string' }, ...STORE_FLAGS },
      usage,
    );
    if (!io.stdin) {
      io.stderr('cohort chat needs an interactive input.\n');
      return 2;
    }
    const opened = await openForCli(io, values);
    const sessionId = stringFlag(values, 'session') ?? randomUUID();
    io.stdout(`Session ${sessionId} · ${opened.assistant.mode} mode · /exit to leave\n> `);
    try {
      for await (const line of io.stdin) {
        const query = line.trim();
        if (query === '/exit' || query === '/quit') break;
        if (query) {
          try {
            for await (const event of opened.assistant.askStream({ query, sessionId })) {
              if (event.type === 'delta') io.stdout(event.text);
              if (event.type === 'done') io.stdout(`\n\n${describeRoute(event.response)}\n`);
            }
          } catch (error) {
            if (!isCohortError(error)) throw error;
            io.stderr(`${error.message}\n`);
          }
        }
        io.stdout('> ');
      }
      io.stdout('\n');
      return 0;
    } finally {
      await opened.close();
    }
  },
};
