import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import { CohortError } from '../errors/index.js';
import type { ChunkRecord } from '../schema/index.js';
import type { Store } from '../store/index.js';

/** The URI scheme and host of ingested documents: `cohort://docs/<path>[?section=<heading>]`. */
export const DOCS_URI_PREFIX = 'cohort://docs/';
/** The URI template clients see for documents. */
export const DOCS_URI_TEMPLATE = `${DOCS_URI_PREFIX}{+path}`;

const SECTION_SEPARATOR = ' › ';

/** The URI of a document, or of one of its sections. */
export function docUri(source: string, section?: string): string {
  const path = source.split('/').map(encodeURIComponent).join('/');
  return `${DOCS_URI_PREFIX}${path}${section ? `?section=${encodeURIComponent(section)}` : ''}`;
}

/** Reads a document URI back into its source path and optional section. */
export function parseDocUri(uri: string): { source: string; section?: string } {
  if (!uri.startsWith(DOCS_URI_PREFIX))
    throw new CohortError(
      'invalid_input',
      `"${uri}" is not a document URI (${DOCS_URI_TEMPLATE}).`,
    );
  try {
    const url = new URL(uri);
    const source = decodeURIComponent(url.pathname.replace(/^\//, ''));
    const section = url.searchParams.get('section') ?? undefined;
    return { source, ...(section ? { section } : {}) };
  } catch (cause) {
    // A malformed escape (`%E0%A4%A`) threw URIError, which reached the client as -32603.
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new CohortError(
      'invalid_input',
      `"${uri}" is not a valid document URI (${reason}): use a URI the resource list gives.`,
      { field: 'uri', cause },
    );
  }
}

const sectionOf = (chunk: ChunkRecord) =>
  chunk.headingPath.length > 0 ? chunk.headingPath.join(SECTION_SEPARATOR) : chunk.title;

/** Every stored document as an MCP resource. */
export async function listDocResources(store: Pick<Store, 'chunks'>): Promise<Resource[]> {
  const documents = await store.chunks.documents();
  return documents.map((document) => ({
    uri: docUri(document.source),
    name: document.source,
    title: document.title,
    description: `${document.title} (${document.domain})`,
    mimeType: 'text/markdown',
  }));
}

/**
 * A document's text, section by section (each content item is one section with its own URI), or
 * one section when the URI names it. An unknown document or section is `not_found`.
 *
 * @example
 * await readDocResource(store, 'cohort://docs/module-1/ros2.md?section=Topics');
 */
export async function readDocResource(
  store: Pick<Store, 'chunks'>,
  uri: string,
): Promise<ReadResourceResult> {
  const { source, section } = parseDocUri(uri);
  const chunks = await store.chunks.ofDocument(source);
  if (chunks.length === 0)
    throw new CohortError(
      'not_found',
      `No ingested document "${source}". List the resources to see the documents.`,
    );
  const sections = new Map<string, string[]>();
  for (const chunk of chunks) {
    const name = sectionOf(chunk);
    sections.set(name, [...(sections.get(name) ?? []), chunk.text]);
  }
  const wanted = section === undefined ? [...sections.keys()] : [section];
  if (section !== undefined && !sections.has(section))
    throw new CohortError(
      'not_found',
      `Document "${source}" has no section "${section}". Its sections: ${[...sections.keys()].join('; ')}.`,
    );
  return {
    contents: wanted.map((name) => ({
      uri: docUri(source, name),
      mimeType: 'text/markdown',
      text: `## ${name}\n\n${(sections.get(name) ?? []).join('\n\n')}`,
    })),
  };
}
