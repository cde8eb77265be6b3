import { answerFailure } from '../../assistant/answer-failure.js';
import type { Assistant } from '../../assistant/index.js';
import { parseInput } from '../../errors/index.js';
import { EMPTY_QUERY_MESSAGE, ChatRequest, toWire } from '../../schema/index.js';
import type { CliCommand } from '../command.js';
import { parseCommandArgs, requirePositional, stringFlag } from '../args.js';
import { configFor, openForCli, StaleStartCache, STORE_FLAGS } from '../open.js';
import { describeRoute } from './describe-route.js';
import { describeSession } from './session-line.js';

const usage =
  'cohort ask "<question>" [--session ID] [--agent NAME] [--multi-domain sequential|parallel] [--stream] [--json] [--data-dir DIR]';

/**
 * `cohort ask`: one question, one answer with citations. The question, session and agent are
 * checked before the store is opened (a typo ingests nothing); a failed answer (model or search
 * down) goes to stderr with exit code 1 and is not saved.
 */
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
        'multi-domain': { type: 'string' },
        stream: { type: 'boolean' },
        json: { type: 'boolean' },
        ...STORE_FLAGS,
      },
      usage,
    );
    const input = parseInput(
      ChatRequest,
      {
        query: requirePositional(positionals, 'question', usage, EMPTY_QUERY_MESSAGE),
        sessionId: stringFlag(values, 'session'),
        agent: stringFlag(values, 'agent'),
        multiDomain: stringFlag(values, 'multi-domain'),
      },
      // Found by an outside try: the error named the request's fields ("sessionId: …").
      {
        names: {
          query: 'question',
          sessionId: '--session',
          agent: '--agent',
          multiDomain: '--multi-domain',
        },
      },
    );
    if (input.agent) {
      // Loaded only here: the router's modules load while the store opens (see `openForCli`).
      const { createBookRegistry } = await import('../../routing/book-registry.js');
      createBookRegistry(configFor(io, values).agentDirs).require(input.agent);
    }
    const answer = async (startCache: boolean): Promise<number> => {
      // With the start cache the question is routed and searched while the store opens. With a
      // sealed start cache the engine is not opened at all when nothing needs it: without a
      // session, or in one the engine holds no message of (its history and the new turn are the
      // folder's session journal's); the answer's trace then goes to the folder's trace journal.
      const opened = await openForCli(io, values, {
        startCache,
        detached: true,
        ...(input.sessionId ? { session: input.sessionId } : {}),
      });
      // The index loads while the question is routed; a failure shows up in the answer instead.
      const warming = opened.knowledgeBase.warm?.().catch(() => undefined);
      // Nothing read from the start cache is shown before the store confirmed it current; when
      // it was not, `current` throws StaleStartCache (nothing was saved either) and it starts again.
      const shown = async <T>(work: () => Promise<T>): Promise<T> => {
        try {
          const result = await work();
          await opened.current;
          return result;
        } catch (error) {
          await opened.current;
          throw error;
        }
      };
      try {
        // When the history and the turn wait for the engine, still opening on its own thread,
        // the question is routed once meanwhile (result unused), so that routing's first use (its
        // expressions compiled, its lexicon and classifier built) is paid while the engine opens,
        // not after it. Otherwise nothing waits: the answer routes it.
        if (input.sessionId && !opened.detached) routeAhead(opened.assistant, input.query);
        if (values.json) {
          const reply = await shown(() => opened.assistant.ask(input));
          const failure = answerFailure(reply);
          if (failure) throw failure;
          io.stdout(JSON.stringify(toWire(reply), null, 2) + '\n');
          return 0;
        }
        let streamed = false;
        await shown(async () => {
          for await (const event of opened.assistant.askStream(input)) {
            if (event.type === 'delta' && values.stream) {
              await opened.current;
              io.stdout(event.text);
              streamed = true;
            }
            if (event.type === 'done') {
              await opened.current;
              const failure = answerFailure(event.response);
              if (failure) throw failure;
              if (!streamed) io.stdout(event.response.answer);
              io.stdout(
                `\n\n${describeRoute(event.response)}\n${describeSession(input.sessionId)}\n`,
              );
            }
          }
        });
        return 0;
      } finally {
        await warming;
        await opened.close();
      }
    };
    try {
      return await answer(true);
    } catch (error) {
      // The stale cache is gone: this start reads the store, and writes a current cache.
      if (error instanceof StaleStartCache) return answer(true);
      throw error;
    }
  },
};

/**
 * Routes `query` and drops the result: what routing builds on first use stays built for the
 * answer's own routing, which decides (and reports any failure) as it would have.
 */
function routeAhead(assistant: Pick<Assistant, 'route'>, query: string): void {
  try {
    assistant.route(query);
  } catch {
    // The answer routes the question again and reports what fails.
  }
}
