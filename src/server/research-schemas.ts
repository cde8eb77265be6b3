// The research request and answer live in schema/ (the MCP tool shares them); the server's
// modules keep importing them from here.
export {
  MAX_RESEARCH_TASKS,
  ResearchBody,
  ResearchResponse,
  researchResponse,
} from '../schema/index.js';
