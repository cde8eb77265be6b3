import * as z from 'zod';
import { unsafeTextFound } from './safe-text.js';

/**
 * A string a file tool writes or names (a path, a file's content, an edit's text), refusing a NUL
 * character or an unpaired UTF-16 surrogate with where it is. Files are written as UTF-8, which
 * has no form for a surrogate (it became U+FFFD without a word), and a call paused for approval is
 * stored as text the database can hold, so a NUL in it became U+FFFD when the call was approved.
 * Refused at the schema, the call fails before it is asked about or run, and the model reads why.
 *
 * @example
 * z.object({ content: fileText('content') }).safeParse({ content: 'a\u0000b' }).success; // false
 */
export function fileText(field: string): z.ZodString {
  return z.string().superRefine((text, context) => {
    const found = unsafeTextFound(text);
    if (found)
      context.addIssue({
        code: 'custom',
        // A path is named again without it; text to write can go through bash as bytes.
        message:
          field === 'path'
            ? `path holds ${found}: a file name cannot hold it; name the file without it.`
            : `${field} holds ${found}: the file tools read and write UTF-8 text only, which cannot carry it; write binary bytes with bash instead (printf '\\000', base64 -d).`,
      });
  });
}
