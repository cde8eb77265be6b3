import * as z from 'zod';
import { lazySchema } from './lazy-schema.js';

/**
 * What the router learns from the knowledge base (plain data, so it can be cached or sent): which
 * terms the book uses at all, in how many chunks of each domain, and the words it is written in.
 */
export const BookKnowledge = lazySchema(() =>
  z.object({
    /** The chunk domains seen, in the order of every per-domain count below. */
    domains: z.array(z.string().min(1)),
    /** Number of chunks per domain. */
    chunks: z.array(z.number().int().min(0)),
    /** Stem → number of chunks per domain whose text, title or headings contain it. */
    terms: z.record(z.string(), z.array(z.number().int().min(0))),
    /** Word as written (lowercase) → occurrences in the book: the spelling corrector's lexicon. */
    words: z.record(z.string(), z.number().int().min(0)),
    /**
     * Stem → the chunks (numbered in learning order) that use it, for stems used in at most
     * `MAX_PASSAGE_SHARE` of the chunks: which words the book uses together, in one passage.
     */
    passages: z.record(z.string(), z.array(z.number().int().min(0))).optional(),
    /**
     * True when the book has a licence page (`license.md`, `COPYING`…): a question asking leave to
     * copy or adapt the work is then the book's, answered there (see `asksLeaveToUseTheWork`).
     */
    licencePage: z.boolean().optional(),
    /**
     * True when the book thanks people under a heading of its own ("Acknowledgments"): a question
     * asking whom the work thanks is then the book's (see `asksWhomTheWorkThanks`).
     */
    acknowledgments: z.boolean().optional(),
    /** The store's chunk version the knowledge was learnt from, when known. */
    version: z.string().optional(),
  }),
);
export type BookKnowledge = z.infer<typeof BookKnowledge>;
