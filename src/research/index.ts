export {
  runResearch,
  streamResearch,
  noResearchRun,
  ownedResearchRun,
  type RequireRunAccess,
  RESEARCH_RUN_KIND,
  type ResearchOptions,
} from './run-research.js';
export {
  openResearch,
  type OpenedResearch,
  type OpenResearchOptions,
  type ResearchRunOptions,
} from './open-research.js';
export {
  createResearchDependencies,
  type CreateResearchDependenciesOptions,
} from './create-research-dependencies.js';
export type {
  ResearchDependencies,
  ResearchSettings,
  ResearchRuns,
  SourceSearch,
  SourceSearchOptions,
  PaperSearch,
  ScrapePage,
} from './research-dependencies.js';
export type {
  ResearchEvent,
  ResearchEventHandler,
  SubagentNodeName,
  TokenCount,
} from './research-events.js';
export { runSubagentGraph, SUBAGENT_NODES } from './subagent-graph.js';
export { subagentNode, defaultSubagentRunner, type SubagentRunner } from './subagent-node.js';
export {
  isolateSubgraphState,
  validateOutputState,
  extractSubagentOutput,
  SUBAGENT_INPUT_FIELDS,
  SUBAGENT_OUTPUT_FIELDS,
} from './isolation.js';
export {
  SubagentOutput,
  type SubagentInput,
  type SubagentState,
  type SubagentContext,
  type SubagentNode,
  type SubagentNodes,
  type SubagentGate,
} from './subagent-state.js';
export { retrieveNode } from './retrieve-node.js';
export { routeSourceNecessity } from './route-source-necessity.js';
export { webSearchNode } from './web-search-node.js';
export { analysisNode, ANALYSIS_SYSTEM_PROMPT } from './analysis-node.js';
export { planTasks, splitQuestion, toTasks, ResearchPlan } from './plan-tasks.js';
export { writeReport, type WrittenReport } from './write-report.js';
export { mergeFindings, mergeVisitedSources, mergeExtractedCitations } from './reducers.js';
export { createVisitedRegistry, type VisitedRegistry } from './visited-registry.js';
export { mapWithConcurrency } from '../agents/loop/index.js';
export {
  connectResearchMcpTools,
  researchToolRefusal,
  type ResearchMcpTools,
} from './research-mcp-tools.js';
export { gatherWithTools, MAX_TOOL_ROUNDS } from './tool-gathering.js';
