import { describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';
import { createBookRegistry, createRouter } from '../routing/index.js';
import { ROUTING_OFF_REASON, routeEverythingToDefault } from './routing-switch.js';

describe('the routing rollout switch (R7)', () => {
  const registry = createBookRegistry([]);
  const router = createRouter(registry);
  const off = routeEverythingToDefault(registry, router);

  it('sends every question to the default agent, saying why', () => {
    for (const query of ['Define odometry', 'How much VRAM does the workstation need?']) {
      expect(router.route(query).primaryAgent).not.toBe('book');
      expect(off.route(query)).toMatchObject({
        primaryAgent: 'book',
        secondaryAgents: [],
        isMultiDomain: false,
        phase: 'fallback',
        routingReason: ROUTING_OFF_REASON,
      });
    }
  });

  it('still honours (and checks) an explicit agent', () => {
    expect(off.route('Define odometry', { agent: 'glossary' }).primaryAgent).toBe('glossary');
    expect(() => off.route('Define odometry', { agent: 'chef' })).toThrow('Unknown agent "chef"');
  });

  it('is what `cohort ask` uses when COHORT_ROUTING=off', async () => {
    const { code, stdout } = await runCli(['ask', 'Define odometry', '--json'], {
      COHORT_ROUTING: 'off',
    });
    expect(code).toBe(0);
    const reply = JSON.parse(stdout) as { agent_used: string; routing_reason: string };
    expect(reply.agent_used).toBe('book');
    expect(reply.routing_reason).toBe(ROUTING_OFF_REASON);
  }, 60_000);
});
