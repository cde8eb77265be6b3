import { randomUUID } from 'node:crypto';
import { answerFailure } from '../../assistant/index.js';
import { isCohortError, parseInput } from '../../errors/index.js';
import { SessionId } from '../../schema/index.js';
import type { CliCommand } from '../command.js';
import { parseCommandArgs, stringFlag } from '../args.js';
import { openForCli, STORE_FLAGS } from '../open.js';
import { chatHelp, readChatLine, unknownChatCommand } from './chat-line.js';
import { describeRoute } from './describe-route.js';

const usage =
  'cohort chat [--session ID] [--data-dir DIR]   (type /help for the commands, /exit to leave)';

/**
 * `cohort chat`: a conversation kept in one session, typed or piped. Every input line is read,
 * including lines that arrive while the store opens; the chat ends at `/exit` (or `/quit`) or at
 * the end of input, `/help` lists the commands, and another `/command` is answered by the chat,
 * never sent to the assistant (see {@link readChatLine}). A failed answer (model or search down)
 * is shown on stderr and not kept.
 */
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
    const requested = stringFlag(values, 'session');
    const sessionId = requested ? parseInput(SessionId, requested) : randomUUID();
    // Taken before the store opens, so piped lines are buffered, not lost.
    const input = io.stdin;
    if (!input) {
      io.stderr('cohort chat needs an interactive input.\n');
      return 2;
    }
    const opened = await openForCli(io, values);
    io.stdout(
      `Session ${sessionId} · ${opened.assistant.mode} mode · /help for the commands, /exit to leave\n> `,
    );
    let failed = false;
    try {
      for await (const line of input) {
        const read = readChatLine(line);
        if (read.kind === 'exit') break;
        if (read.kind === 'help') io.stdout(chatHelp(sessionId));
        if (read.kind === 'unknown') {
          // A mistake, like a failed turn: a script that pipes one fails.
          failed = true;
          io.stderr(unknownChatCommand(read.command));
        }
        if (read.kind === 'question') {
          const { query } = read;
          try {
            for await (const event of opened.assistant.askStream({ query, sessionId })) {
              if (event.type !== 'done') {
                if (event.type === 'delta') io.stdout(event.text);
                continue;
              }
              const failure = answerFailure(event.response);
              if (failure) {
                failed = true;
                io.stderr(`${failure.message}\n`);
              } else io.stdout(`\n\n${describeRoute(event.response)}\n`);
            }
          } catch (error) {
            if (!isCohortError(error)) throw error;
            failed = true;
            io.stderr(`${error.message}\n`);
          }
        }
        io.stdout('> ');
      }
      io.stdout('\n');
      // Piped input is a script: a turn that failed makes the whole run fail.
      return failed && !io.isTTY ? 1 : 0;
    } finally {
      await opened.close();
    }
  },
};
