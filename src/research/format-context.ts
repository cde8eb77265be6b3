import type { SourceDocument } from '../schema/index.js';
import type { SubagentState } from './subagent-state.js';

/** Characters of one source shown to the analysis model. */
export const SOURCE_CONTEXT_CHARS = 2000;

/** A source with its `[n]` in a subagent's context. */
export interface NumberedSource extends SourceDocument {
  index: number;
}

/** The sources a subagent gathered, numbered `[1]…` in the order internal, web, paper. */
export function numberSources(
  state: Pick<SubagentState, 'internalResult' | 'webResult' | 'paperResult'>,
): NumberedSource[] {
  const all = [
    ...(state.internalResult?.sources ?? []),
    ...(state.webResult?.sources ?? []),
    ...(state.paperResult?.sources ?? []),
  ];
  return all.map((source, i) => ({ ...source, index: i + 1 }));
}

/** One line naming a source: kind, title, where it is, authors and date for papers. */
export function describeSource(source: SourceDocument): string {
  const where =
    source.sourceType === 'internal'
      ? source.section
        ? `${source.url} § ${source.section}`
        : source.url
      : source.url;
  const authors = source.authors?.length
    ? ` — ${source.authors.slice(0, 3).join(', ')}${source.authors.length > 3 ? ' et al.' : ''}`
    : '';
  const date = source.published ? ` (${source.published})` : '';
  return `(${source.sourceType}) ${source.title || 'untitled'}${authors}${date}${where ? ` <${where}>` : ''}`;
}

/**
 * The sources as the model reads them: `[n] (kind) title <where>` then the text, cut to
 * {@link SOURCE_CONTEXT_CHARS} so many sources fit the context window.
 */
export function formatContext(sources: readonly NumberedSource[]): string {
  return sources
    .map((source) => {
      const text =
        source.content.length > SOURCE_CONTEXT_CHARS
          ? `${source.content.slice(0, SOURCE_CONTEXT_CHARS)}…`
          : source.content;
      return `[${source.index}] ${describeSource(source)}\n${text}`;
    })
    .join('\n\n');
}
