import { describe, expect, it } from 'vitest';
import { parseJsonFile } from './json-file.js';

/** The message parseJsonFile throws for `text`, or undefined when it parses. */
function refusal(text: string): string | undefined {
  try {
    parseJsonFile('cohort.config.json', text);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('parseJsonFile on text that is not JSON', () => {
  it('names the line and column, as an editor counts them, and what JSON wanted there', () => {
    // It said "(SyntaxError: Expected double-quoted property name in JSON at position 41)": a
    // character count nobody can find in a file of many lines.
    expect(refusal('{\n  "routing": {\n    "threshold": 0.5,\n  }\n}')).toBe(
      'cohort.config.json:4:3: not valid JSON: Expected double-quoted property name (JSON takes no comma after the last item)',
    );
    expect(refusal('{\n  "routing": {\n    "threshold": 0.5\n  \n}')).toBe(
      "cohort.config.json:5:2: not valid JSON: Expected ',' or '}' after property value",
    );
    expect(refusal("{\n  'routing': {}\n}")).toBe(
      "cohort.config.json:2:3: not valid JSON: Expected property name or '}' (JSON quotes with double quotes)",
    );
    expect(refusal('{\n  // the router\n  "routing": {}\n}')).toBe(
      "cohort.config.json:2:3: not valid JSON: Expected property name or '}' (JSON takes no comments)",
    );
    expect(refusal('{"routing": {}}}')).toBe(
      'cohort.config.json:1:16: not valid JSON: Unexpected non-whitespace character after JSON',
    );
    expect(refusal('{"routing": {}')).toBe(
      "cohort.config.json:1:15: not valid JSON: Expected ',' or '}' after property value",
    );
  });

  it('says an empty file is empty, and keeps the parser’s words where it gives no place', () => {
    expect(refusal('')).toBe('cohort.config.json: not valid JSON: the file is empty');
    expect(refusal('  \n')).toBe('cohort.config.json: not valid JSON: the file is empty');
    expect(refusal('{"a": tru}')).toMatch(
      /^cohort\.config\.json: not valid JSON: Unexpected token/,
    );
  });
});
