/** What a message says when it asks nothing of the book: it greets, thanks, leaves or asks who answers. */
export type SocialKind = 'greeting' | 'thanks' | 'farewell' | 'acknowledgement' | 'identity';

// Each kind's phrases, as the words of a message with its punctuation taken out. Longer phrases
// first within a kind, so "thank you" is read before "thank".
const PHRASES: readonly [SocialKind, readonly string[]][] = [
  [
    'identity',
    [
      'who are you',
      'what are you',
      'what can you do',
      'what do you do',
      'how can you help me',
      'how can you help',
      'what can i ask you',
      'what can i ask',
    ],
  ],
  [
    'thanks',
    [
      'thank you very much',
      'thank you so much',
      'thanks a lot',
      'thanks so much',
      'many thanks',
      'no thank you',
      'no thanks',
      'thank you',
      'thanks',
      'thank',
      'thx',
      'ty',
      'cheers',
    ],
  ],
  [
    'farewell',
    [
      'see you later',
      'see you',
      'good night',
      'goodbye',
      'bye bye',
      'bye',
      'cya',
      // "No thanks, I'm done.": the apostrophe is taken out before phrases are read.
      'i am done',
      'im done',
      'thats all',
      'that is all',
    ],
  ],
  [
    'greeting',
    [
      'good morning',
      'good afternoon',
      'good evening',
      'hello there',
      'hi there',
      'hey there',
      'hello',
      'hiya',
      'hey',
      'hi',
      'yo',
    ],
  ],
  [
    'acknowledgement',
    [
      'that makes sense',
      'makes sense',
      'sounds good',
      'got it',
      'understood',
      'alright',
      'all right',
      'okay',
      'ok',
      'cool',
      'great',
      'nice',
      'perfect',
      'awesome',
      'good',
    ],
  ],
];

/**
 * Words that may go with the phrases without asking anything ("thanks, that helps", "ok great,
 * thank you so much for your help"): a message with any other word asks something of the book.
 */
const FILLER = new Set(
  (
    'a again all and also bot everyone for folks helps helped helpful help it lot much so that ' +
    'thats the there this very was you your really guys oh ah well'
  ).split(' '),
);

/**
 * The kind of a message that only greets, thanks, says goodbye, acknowledges an answer or asks
 * who answers ("hello", "thanks, that helps!", "ok", "who are you?"); undefined for any message
 * that asks something else ("thanks, and what is a topic?", "hello, what is URDF?"). When a
 * message holds several kinds, the first of identity, thanks, farewell, greeting and
 * acknowledgement is its kind ("ok thanks" thanks).
 *
 * @example
 * socialMessage('Thanks, that helps!'); // 'thanks'
 * socialMessage('Hi, what is a ROS 2 topic?'); // undefined
 */
export function socialMessage(text: string): SocialKind | undefined {
  const words = text
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0 || words.length > 12) return undefined;
  // "help" alone asks what the assistant can do; "thanks for your help" only thanks.
  if (/^(?:please )?help(?: me)?(?: please)?$/.test(words.join(' '))) return 'identity';
  const found = new Set<SocialKind>();
  let rest = ` ${words.join(' ')} `;
  for (const [kind, phrases] of PHRASES) {
    for (const phrase of phrases) {
      const spaced = ` ${phrase} `;
      while (rest.includes(spaced)) {
        rest = rest.replace(spaced, ' ');
        found.add(kind);
      }
    }
  }
  if (found.size === 0) return undefined;
  if (rest.split(' ').some((word) => word !== '' && !FILLER.has(word))) return undefined;
  return PHRASES.map(([kind]) => kind).find((kind) => found.has(kind));
}

/** How many social openers {@link withoutSocialOpener} takes off, at most. */
const MAX_OPENERS = 3;
// A social opener ends at a sentence's or a clause's mark ("Thanks! …", "Hi, …", "ok thanks, …").
const OPENER = /^\s*([^.?!,;:]+)[.?!,;:]+\s+/;

/**
 * `query` without the greeting or thanks it opens with ("Thanks! What is a ROS 2 topic?" → "What
 * is a ROS 2 topic?"), so the opener's words are not ranked: "thank" drew the book's
 * acknowledgements and pushed the definition of topics out of the first five. The query itself
 * when nothing opens it, or when nothing would be left.
 *
 * @example
 * withoutSocialOpener('Hi, what is URDF?'); // 'what is URDF?'
 */
export function withoutSocialOpener(query: string): string {
  let rest = query;
  // A few openers at most ("ok, thanks! …"): a question made of hundreds is not read hundreds of
  // times over.
  for (
    let n = 0, match = OPENER.exec(rest);
    match && n < MAX_OPENERS;
    n++, match = OPENER.exec(rest)
  ) {
    if (socialMessage(match[1] ?? '') === undefined) break;
    const after = rest.slice(match[0].length);
    if (!/[\p{L}\p{N}]/u.test(after)) break;
    rest = after;
  }
  return rest;
}
