import type { RetrievedChunk } from '../schema/index.js';
import { settleBounded } from '../bounded-call/index.js';
import type { NumberedSource } from './format-context.js';
import type { SubagentContext } from './subagent-state.js';

/** Headings that mark a reference list. */
export const REFERENCES_HEADING = /\b(references|bibliography|works cited|further reading)\b/i;
/** Characters of one document's reference list added to the context. */
export const REFERENCES_CHARS = 2000;

function isReferences(chunk: RetrievedChunk): boolean {
  const firstLine = chunk.text.split('\n', 1)[0] ?? '';
  return REFERENCES_HEADING.test(chunk.section ?? '') || REFERENCES_HEADING.test(firstLine);
}

/**
 * Reference enhancement (spec): for each internal document used, retrieves its "References"
 * section through the retriever and returns it as extra context, so the model can cite the
 * document's own references correctly. Bounded by `research.timeoutRetrieval`; nothing found
 * or a timeout gives an empty string.
 *
 * @example
 * const references = await enhanceContextWithReferences(sources, context);
 */
export async function enhanceContextWithReferences(
  sources: readonly NumberedSource[],
  context: Pick<SubagentContext, 'retriever' | 'settings' | 'signal'>,
): Promise<string> {
  const retriever = context.retriever;
  if (!retriever) return '';
  const documents = new Map<string, string>();
  for (const source of sources) {
    if (source.sourceType === 'internal' && source.url && !documents.has(source.url)) {
      documents.set(source.url, source.title);
    }
  }
  if (documents.size === 0) return '';
  const timed = await settleBounded(
    (signal) =>
      Promise.all(
        [...documents].map(async ([document, title]) => {
          const chunks = await retriever.retrieve(`${title} references bibliography`, {
            limit: 8,
            signal,
          });
          const list = chunks.filter((chunk) => chunk.source === document && isReferences(chunk));
          if (list.length === 0) return '';
          const text = list
            .map((chunk) => chunk.text)
            .join('\n')
            .slice(0, REFERENCES_CHARS);
          return `References of ${title || document} (${document}):\n${text}`;
        }),
      ),
    {
      timeoutMs: context.settings.timeoutRetrieval * 1000,
      signal: context.signal,
      what: 'reference retrieval',
    },
  );
  return timed.ok ? timed.value.filter(Boolean).join('\n\n') : '';
}
