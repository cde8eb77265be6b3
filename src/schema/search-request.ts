import * as z from 'zod';
import { Query } from './context.js';
import { ContentDomain } from './domain.js';
import { lazySchema } from './lazy-schema.js';

/** Most passages one search returns. */
export const MAX_SEARCH_LIMIT = 50;

const limitMessage = `limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT}`;

/**
 * A search of the knowledge base (the MCP `search_book` tool): the query, an optional content
 * domain to search first, and how many passages to return.
 */
export const SearchBookRequest = lazySchema(() =>
  z.object({
    query: Query,
    domain: ContentDomain.optional(),
    limit: z
      .number({ error: limitMessage })
      .int(limitMessage)
      .min(1, limitMessage)
      .max(MAX_SEARCH_LIMIT, limitMessage)
      .optional(),
  }),
);
export type SearchBookRequest = z.infer<typeof SearchBookRequest>;
