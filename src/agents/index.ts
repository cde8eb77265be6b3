export { defineAgent, type Agent, type AgentRunOverride } from './define-agent.js';
export { parseAgentFile, loadAgentFile, loadAgentDir } from './agent-file.js';
export { AgentRegistry } from './registry.js';
export type { AgentDependencies } from './dependencies.js';
export { finalResponse, type AgentEvent, type AgentRunner } from './runner.js';
export { ANSWER_MESSAGES, EXTRACTIVE_NOTICE } from './messages.js';
