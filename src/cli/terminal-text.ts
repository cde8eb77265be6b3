/** A control character but tab and line feed: C0, DEL and C1 (0x80-0x9f, such as the one-byte CSI). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** DEL's picture; C0's are U+2400 on (␀ … ␟). */
const DELETE_PICTURE = '\u2421';

/** What a control character shows as: its Unicode control picture, or its code point for C1. */
function picture(character: string): string {
  const code = character.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return DELETE_PICTURE;
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * Text for the terminal: every control character but tab and line feed shown as a picture
 * (`␛` for ESC) instead of sent. What cohort prints comes from documents, the web and models,
 * and an escape sequence in it would act on the user's terminal: set the window title, clear the
 * screen, draw a link whose text hides its address, or move the cursor up over an approval
 * prompt and rewrite it. A CRLF line end is kept as a line end.
 *
 * @example
 * terminalText('\x1b[2Jhello'); // '␛[2Jhello'
 */
export function terminalText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROL, picture);
}
