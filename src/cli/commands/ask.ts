import { toWire } from '../../schema/index.js';
import type { CliCommand } from '../command.js';
import { parseCommandArgs, requirePositional, stringFlag } from '../args.js';
import { openForCli, STORE_FLAGS } from '../open.js';
import { describeRoute } from './describe-route.js';

const usage =
  'cohort ask "<question>" [--session ID] [--agent NAME] [--stream] [--json] [--data-dir DIR]';

/** `cohort ask`: one question, one answer with citations. */
export const askCommand: CliCommand = {
  name: 'ask',
  summary: 'Ask the book assistant one question',
  usage,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        session: { type: 'string' },
        agent: { type: 'string' },
        stream: { type: 'boolean' },
        json: { type: 'boolean' },
        ...STORE_FLAGS,
      },
      usage,
    );
    const query = requirePositional(positionals, 'question', usage);
    const opened = await openForCli(io, values);
    try {
      const input = {
        query,
        sessionId: stringFlag(values, 'session'),
        agent: stringFlag(values, 'agent'),
      };
      if (values.json) {
        io.stdout(JSON.stringify(toWire(await opened.assistant.ask(input)), null, 2) + '\n');
        return 0;
      }
      let streamed = false;
      for await (const event of opened.assistant.askStream(input)) {
        if (event.type === 'delta' && values.stream) {
          io.stdout(event.text);
          streamed = true;
        }
        if (event.type === 'done') {
          if (!streamed) io.stdout(event.response.answer);
          io.stdout(`\n\n${describeRoute(event.response)}\n`);
        }
      }
      return 0;
    } finally {
      await opened.close();
    }
  },
};
