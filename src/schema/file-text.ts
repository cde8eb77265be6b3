import * as z from 'zod';
import { unsafeTextFound } from './safe-text.js';

/** Longest name of one file or folder, in bytes (NAME_MAX of Linux, macOS and Windows's NTFS). */
export const MAX_NAME_BYTES = 255;
/** Longest path, in bytes (Linux's PATH_MAX). */
export const MAX_PATH_BYTES = 4096;

const UTF8 = new TextEncoder();
const byteLength = (text: string) => UTF8.encode(text).length;

/**
 * Why `path` names no file the system could hold (a name over {@link MAX_NAME_BYTES} bytes, or the
 * whole over {@link MAX_PATH_BYTES}), or undefined. Refused before the permission rules match it:
 * picomatch matched `Read(*a*a*)` against one 4,000-character name in 19 s on the event loop.
 */
function pathTooLong(path: string): string | undefined {
  const bytes = byteLength(path);
  if (bytes > MAX_PATH_BYTES)
    return `path is ${bytes} bytes, longer than a path can be (${MAX_PATH_BYTES}); name a file that exists or can.`;
  const name = path.split(/[\\/]/).find((part) => byteLength(part) > MAX_NAME_BYTES);
  if (name !== undefined)
    return `path holds a name of ${byteLength(name)} bytes ("${[...name].slice(0, 20).join('')}…"), longer than a file name can be (${MAX_NAME_BYTES}); name a file that exists or can.`;
  return undefined;
}

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
    const tooLong = field === 'path' ? pathTooLong(text) : undefined;
    if (tooLong) context.addIssue({ code: 'custom', message: tooLong });
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
