export {
  formatCitations,
  extractSourceText,
  formatSourcesFooter,
  citationLocation,
  citationMarkers,
} from './format-citations.js';
export { createCitationGuard, type CitationGuard } from './citation-guard.js';
