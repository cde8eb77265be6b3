export { createRagSkill, type RagSkill } from './rag-skill.js';
export {
  formatCitations,
  extractSourceText,
  formatSourcesFooter,
  citationLocation,
  citationMarkers,
} from './citation-skill.js';
export { createContextSkill, type ContextSkill } from './context-skill.js';
