import { EMPTY_QUERY_MESSAGE, RouteRequest, routeResponse, toWire } from '../../schema/index.js';
import { parseInput } from '../../errors/index.js';
import type { CliCommand } from '../command.js';
import { parseCommandArgs, requirePositional } from '../args.js';
import { openForCli, routerAsAnswered, STORE_FLAGS } from '../open.js';

const usage = 'cohort route "<question>" [--json]';

/**
 * `cohort route`: the routing decision alone, with its reason; no model. The router is the
 * assistant's own, grounded in what the store's book covers (the sample book on first use).
 */
export const routeCommand: CliCommand = {
  name: 'route',
  summary: 'Show which agent would answer a question, and why',
  usage,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      { json: { type: 'boolean' }, ...STORE_FLAGS },
      usage,
    );
    const { query } = parseInput(RouteRequest, {
      query: requirePositional(positionals, 'question', usage, EMPTY_QUERY_MESSAGE),
    });
    const opened = await openForCli(io, values);
    let route;
    try {
      route = (await routerAsAnswered(opened)).route(query);
    } finally {
      await opened.close();
    }
    if (values.json) {
      // The same shape as `POST /route` (`reason`, not `routing_reason`).
      io.stdout(JSON.stringify(toWire(routeResponse(route)), null, 2) + '\n');
      return 0;
    }
    const secondary = route.secondaryAgents.length
      ? `\nsecondary:  ${route.secondaryAgents.join(', ')}`
      : '';
    io.stdout(
      `agent:      ${route.primaryAgent}${secondary}\nconfidence: ${route.confidence.toFixed(2)}\nphase:      ${route.phase}\nreason:     ${route.routingReason}\n`,
    );
    return 0;
  },
};
