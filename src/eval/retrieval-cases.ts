import * as z from 'zod';
import { CohortError, parseInput } from '../errors/index.js';
import { readCasesFile } from '../config/index.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** One evaluation question: gold passages are `relative/path.md#Heading`. */
export const RetrievalCase = lazySchema(() =>
  z.object({
    query: z.string().trim().min(1, 'query must not be empty'),
    gold: z
      .array(z.string().regex(/^[^#]+#.+$/, 'gold entries look like "path/to/file.md#Heading"'))
      .min(1, 'gold must list at least one "path#Heading"'),
    answer_hint: z.string().optional(),
    /** Which half of a blind set the case belongs to (`tune` or `heldout`), reported apart. */
    split: z.string().trim().min(1).optional(),
  }),
);
export type RetrievalCase = z.infer<typeof RetrievalCase>;

/** Parses JSONL text into cases; a bad line is an `invalid_input` error naming the line and field. */
export function parseRetrievalCases(text: string, file = 'cases'): RetrievalCase[] {
  const cases: RetrievalCase[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `${file}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (cause) {
      throw new CohortError('invalid_input', `${where}: not valid JSON (${String(cause)})`, {
        file,
        cause,
      });
    }
    cases.push(parseInput(RetrievalCase, value, { file: where }));
  });
  if (cases.length === 0)
    throw new CohortError(
      'invalid_input',
      `${file}: no cases (expected one JSON object per line)`,
      { file },
    );
  return cases;
}

/**
 * Loads retrieval cases from a JSONL file (`{"query","gold":["path#Heading"],"answer_hint"}`).
 *
 * @example
 * const cases = await loadRetrievalCases('../shared/eval/retrieval-dev.jsonl');
 */
export async function loadRetrievalCases(file: string): Promise<RetrievalCase[]> {
  return parseRetrievalCases(readCasesFile(file, 'cases file'), file);
}
