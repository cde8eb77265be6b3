export { formatCitations, extractSourceText, citationLocation } from './format-citations.js';
export { CITATION_MARKER, citationMarkers, renumberMarkers } from './markers.js';
export { formatSourcesFooter, hasSourcesFooter, splitSourcesFooter } from './sources-footer.js';
export { numberSources } from './number-sources.js';
export { REPORT_SOURCES_HEADING, reportBody } from './report-sources.js';
export { mergeCitations } from './merge-citations.js';
export { createCitationGuard, type CitationGuard } from './citation-guard.js';
export { sourceUrl, headingAnchor, type SourceLink } from './source-url.js';
