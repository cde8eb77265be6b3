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

/**
 * The Unicode controls that reorder how text is shown (the embeddings, overrides and isolates
 * U+202A-U+202E and U+2066-U+2069, and the marks U+200E, U+200F, U+061C): "Trojan Source".
 */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/**
 * Text whose characters must be seen in the order they run, such as a command shown for
 * approval: each bidirectional control shown as its code point (`<U+202E>`) instead of applied. A
 * terminal that lays out right-to-left text would otherwise show a model's
 * `ls #<U+202E> ~ fr- mr` or an isolate-moved `; rm -rf ~` in another order than the shell runs
 * it. Answers keep these controls (right-to-left prose needs them); approvals do not.
 *
 * @example
 * bidiControlsShown('echo hi \u202e'); // 'echo hi <U+202E>'
 */
export function bidiControlsShown(text: string): string {
  return text.replace(BIDI_CONTROL, picture);
}

/**
 * Text shown on one line, such as a command asked about: each line break as `␤`, a run of them
 * as `␤×60`, and a run of eight blanks or more as ` ␠×4000 `. A model's `rm -rf ~/x`, sixty line
 * breaks and `npm test` left `npm test` above the approval prompt and the `rm` scrolled away.
 *
 * @example
 * oneLineShown('rm x\n\n\nnpm test'); // 'rm x␤×3npm test'
 */
export function oneLineShown(text: string): string {
  return text
    .replace(/\r?\n(?:[ \t]*\r?\n)*/g, (breaks) => {
      const count = breaks.split('\n').length - 1;
      return count === 1 ? '\u2424' : `\u2424×${count}`;
    })
    .replace(/[ \t]{8,}/g, (blanks) => ` \u2420×${blanks.length} `);
}
