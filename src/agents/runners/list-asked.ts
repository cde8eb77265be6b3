/**
 * What a question asks a list of: "What are the lifecycle states of a lifecycle node?" asks for
 * the states, "Which safety standards does the book list?" for the standards. The noun is plural
 * and follows a determiner ("the", "some", a number) or "which"/"what" with a verb after it, so
 * "What are nodes?" (a definition) asks for no list.
 */
const FORMS: readonly RegExp[] = [
  // "What are the (key) components of …", "What were the two phases …", "What are a digital
  // twin's key characteristics?" (a follow-up's "its" filled in)
  /^(?:what|which)\s+(?:are|were)\s+(?:the|some|all(?:\s+the)?|its|their|his|her|(?:the\s+)?(?:[\w-]+\s+){0,2}[\w-]+['’]s)\s+((?:[\w-]+\s+){0,3}?[\w-]+)(?=\s+(?:of|in|for|that|which|used|does|do|did|to|from|on|at|with|a|an|the|this|these|we|i|you|they|it)\b|\s*[?.!]?\s*$)/i,
  // "Which safety standards does the book list?", "What sensors does the G1 have?"
  /^(?:what|which)\s+((?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:does|do|did|are|were|can|could|should|will|would|has|have|is)\b/i,
  // "List the …", "Name all the …"
  /^(?:list|name|enumerate)\s+(?:the\s+|all\s+(?:of\s+)?(?:the\s+)?)?((?:[\w-]+\s+){0,3}?[\w-]+)(?=\s+(?:of|in|for|that|which|used|does|do|to|from|on|at|with)\b|\s*[?.!]?\s*$)/i,
  // "What kinds of sensors …": the list is of what follows "of".
  /^what\s+(?:kinds|types|sorts|categories)\s+of\s+((?:[\w-]+\s+){0,2}?[\w-]+)/i,
];

const LEAD =
  /^(?:(?:so|and|ok(?:ay)?|well|now|also|but)\b[,\s]*)*(?:(?:can|could|would) you\s+(?:please\s+)?|please\s+)?/i;

/** Plural nouns that ask to compare two things, not for a list (see the comparison rule). */
const NOT_A_LIST = new Set(['differences', 'similarities', 'ones', 'things', 'others']);

/** Nouns that name a list's kind, not its items: "joint types" lists joints. */
const KIND_OF = new Set(['types', 'kinds', 'sorts', 'categories', 'varieties', 'classes', 'forms']);

/** Words that describe a kind rather than name what is listed: "the different types". */
const DESCRIBING = new Set([
  'different',
  'various',
  'main',
  'key',
  'common',
  'major',
  'several',
  'many',
  'other',
  'two',
  'three',
  'four',
  'five',
  'basic',
  'possible',
  'available',
]);

/** True for a plural noun: "states", "properties"; not "process", "focus", "analysis". */
function plural(word: string): boolean {
  return word.length > 3 && /s$/i.test(word) && !/(?:ss|us|is)$/i.test(word);
}

/**
 * The plural noun a question asks a list of ("states" of "What are the lifecycle states of …"),
 * lower case; undefined when it asks for no list.
 *
 * @example
 * listAsked('Which safety standards does the book list?'); // 'standards'
 * listAsked('What joint types does URDF support?'); // 'joint'
 * listAsked('What are nodes in ROS 2?'); // undefined
 */
export function listAsked(query: string): string | undefined {
  const text = query.trim().replace(LEAD, '');
  for (const form of FORMS) {
    const match = form.exec(text);
    const words = match?.[1]?.toLowerCase().split(/\s+/);
    const head = words?.at(-1);
    if (!match || head === undefined || !plural(head) || NOT_A_LIST.has(head)) continue;
    if (KIND_OF.has(head)) {
      // "What are the different types of joints?", "What joint types does URDF support?": the
      // book lists them under "Joints".
      const after = /^\s+of\s+(?:the\s+)?([\w-]+)/i.exec(text.slice(match.index + match[0].length));
      const of = after?.[1]?.toLowerCase();
      if (of !== undefined && plural(of)) return of;
      const kindOf = words?.at(-2);
      if (kindOf !== undefined && !DESCRIBING.has(kindOf)) return kindOf;
    }
    return head;
  }
  return undefined;
}
