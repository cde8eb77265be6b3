import type { ChatResponse } from '../../schema/index.js';

/** The line under an answer: which agent answered, how sure the router was, and why. */
export function describeRoute(response: ChatResponse): string {
  const others = response.secondaryAgents.length ? ` + ${response.secondaryAgents.join(', ')}` : '';
  const confidence = response.routingConfidence?.toFixed(2) ?? '?';
  return `— ${response.agentUsed ?? '?'}${others} agent · routing confidence ${confidence} · ${response.routingReason ?? ''} · ${response.latencyMs ?? 0} ms`;
}
