import { asksOnlyAboutTheWork } from '../../retrieval/index.js';

/** The kind of answer a question asks for, read from its wording. */
export type QuestionForm = 'definition' | 'explanation' | 'other';

/** What a question asks about. */
export interface QuestionSubject {
  form: QuestionForm;
  /** The subject as written ("ROS 2 topic"), without the question's wording or its context. */
  phrase?: string;
  /** The subject's head word, the one an answer must name ("topic" of "ROS 2 topic"). */
  head?: string;
  /** True when the subject is a pronoun ("it", "that"): a follow-up that names no subject. */
  pronoun?: boolean;
}

const LEAD = /^(?:(?:so|and|ok(?:ay)?|hm+|well|now|then|also|but)\b[,\s]*)*/i;
const POLITE = /^(?:(?:can|could|would) you\s+(?:please\s+)?|please\s+)/i;
const ARTICLE = /^(?:a|an|the|this|that|these|those)\s+/i;
const PRONOUNS = /^(?:it|that|this|they|them|those|these|he|she|one|the (?:term|acronym|word))$/i;

/** Definition wordings: the subject is the capture. */
const DEFINITION_FORMS: readonly RegExp[] = [
  /^what\s+does\s+(.+?)\s+(?:stand\s+for|mean|refer\s+to|do)\b/i,
  /^what\s+is\s+meant\s+by\s+(.+)/i,
  /^(?:what|who)(?:\s+(?:exactly|actually|really|precisely))?(?:'s|’s|\s+is|\s+are|\s+was|\s+were)\s+(.+)/i,
  /^whats\s+(.+)/i,
  /^(?:define|definition\s+of|meaning\s+of|the\s+meaning\s+of)\s+(.+)/i,
  /^(.+?)\s+(?:definition|meaning|stands\s+for)$/i,
];

/** Explanation wordings: the subject is the capture. */
const EXPLANATION_FORMS: readonly RegExp[] = [
  /^how\s+(?:do|does|did|is|are|can|could|should|would)\s+(.+?)\s+(?:work|function|operate|behave|happen|communicate|interact|fit|run)\b/i,
  /^(?:explain|describe)\s+(?:how\s+|what\s+|why\s+)?(.+)/i,
  // "How is a costmap updated?", "How are launch files written?": the subject precedes the participle.
  /^how\s+(?:is|are|was|were)\s+(.+?)\s+[a-z]+(?:ed|en|wn|lt|ne)\b/i,
  /^why\s+(?:do|does|is|are|would|should)\s+(.+?)\s+(?:need|use|matter|have)\b/i,
  /^(?:what\s+is|what's)\s+the\s+(?:role|purpose|point|job)\s+of\s+(.+)/i,
  // "What is a launch file for?", "What are services used for?": the purpose of the subject.
  /^(?:what\s+(?:is|are)|what's|what’s)\s+(.+?)\s+(?:(?:used|good|meant|needed)\s+)?for\s*[?!.]*$/i,
];

// Where the subject stops and its context begins: "a node in ROS 2", "QoS for sensor data".
const CONTEXT_BREAK =
  /\s+(?:in|inside|within|for|when|while|used|exactly|actually|really|again|under|on|at|as|from|and|or|vs\.?|versus|compared|different|differs?|distinct|with|that|which|who|according|by|to)\b.*$/i;
const TAIL_WORDS =
  /\s+(?:exactly|actually|really|again|about|mean|means|in (?:the )?book|here|there|anyway|works?|is|are|does|do|functions?|operates?|please|thanks|thank you)$/i;

/** Trims a captured subject to its noun phrase: no article, no context clause, no punctuation. */
function trimPhrase(raw: string): string {
  let phrase = raw
    .replace(/[?!.…]+\s*$/, '')
    .replace(/["“”'‘’`*]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  phrase = phrase.replace(/^(?:exactly|actually|really|basically)\s+/i, '');
  phrase = phrase.replace(ARTICLE, '');
  phrase = phrase.replace(CONTEXT_BREAK, '');
  phrase = phrase.replace(TAIL_WORDS, '');
  phrase = phrase.replace(/[,;:]+.*$/, '').trim();
  return phrase;
}

// Nouns that relate to another ("the purpose of X"): the subject is what follows "of".
const RELATIONAL =
  /^(?:idea|meaning|definition|concept|notion|purpose|role|point|job|function|use)$/i;
// Nouns naming the parts or properties of another, answered as a list ("the benefits of
// multi-instance simulation", "the components of a digital twin"): the list's items rarely repeat
// the noun, so the subject is what follows "of", and the question asks for the list, not a
// definition. Plural only: "the principle of least privilege" is a term to define.
const ASPECT =
  /^(?:benefits|advantages|disadvantages|drawbacks|pros|cons|limitations|challenges|risks|types|kinds|components|parts|elements|features|characteristics|properties|specs|specifications|capabilities|dimensions|responsibilities|steps|stages|phases|requirements|applications|examples|goals|principles|causes|effects|strengths|weaknesses|trade-?offs)$/i;
// "What is covered/needed/…": a passive verb, not a term to define.
const PASSIVE =
  /^(?:(?:the\s+)?(?:differences?|similarit\w*|best|main|first|next|last)\b|covered|needed|required|included|involved|used|meant|expected|done|taught|given|known|considered|recommended|happening|going on|new|next|left|better|best|worse|wrong|possible)\b/i;

/**
 * The head word of a noun phrase: its last word ("topic" of "ROS 2 topic"), a versioned name whole
 * ("ROS 2"), and before "of" the noun that "of" qualifies ("capacity" of "capacity of the battery")
 * unless that noun only points at what follows ("the purpose of Nav2" → "Nav2") or names a part of
 * it ("the benefits of multi-instance simulation" → "simulation").
 */
function headOf(phrase: string): string | undefined {
  const [before, after] = phrase.split(/\s+of\s+/i, 2);
  if (after !== undefined && before) {
    const last = before.split(/\s+/).at(-1) ?? '';
    if (!RELATIONAL.test(last) && !ASPECT.test(last)) return last;
    return headOf(after.replace(ARTICLE, ''));
  }
  const words = phrase.split(/\s+/).filter(Boolean);
  let last = words.at(-1);
  // "ROS 2", "Nav 2": the number belongs to the name before it.
  const name = words.at(-2) ?? '';
  if (last && /^\d+$/.test(last) && /^[A-Z][A-Za-z]*$/.test(name)) last = `${name} ${last}`;
  return last;
}

/**
 * Reads what a question asks about: its form (a definition, an explanation, something else) and,
 * for the first two, the subject phrase and its head word. "What exactly is a node in ROS 2?" asks
 * for the definition of "node" (context "ROS 2"); "How do ROS 2 topics work?" for an explanation of
 * "ROS 2 topics", head "topics"; "What does it stand for?" names no subject (`pronoun`).
 *
 * @example
 * questionSubject('What is a ROS 2 topic?'); // { form: 'definition', phrase: 'ROS 2 topic', head: 'topic' }
 */
export function questionSubject(query: string): QuestionSubject {
  // "Who is this book written for?" asks about the work, not for a definition of "written": its
  // answer is the opening page, which need not repeat the question's words.
  if (asksOnlyAboutTheWork(query)) return { form: 'other' };
  // A question may follow a remark ("I'm new here. What is a topic?"): each sentence is tried.
  for (const sentence of query.trim().split(/(?<=[.?!])\s+/)) {
    const text = sentence.replace(LEAD, '').replace(POLITE, '');
    for (const [form, patterns] of [
      ['explanation', EXPLANATION_FORMS],
      ['definition', DEFINITION_FORMS],
    ] as const) {
      for (const pattern of patterns) {
        const match = pattern.exec(text);
        if (!match?.[1]) continue;
        if (form === 'definition' && PASSIVE.test(match[1].trim())) return { form: 'other' };
        const phrase = trimPhrase(match[1]);
        if (!phrase) continue;
        if (PRONOUNS.test(phrase)) return { form, pronoun: true };
        // "What is the difference between …", "what are the steps …" are not definitions of a term.
        if (form === 'definition' && phrase.split(/\s+/).length > 5) return { form: 'other' };
        if (form === 'definition') {
          // "the (different / two / key) benefits of X": a list about X, whose subject is X;
          // "the pros and cons of X", cut at "and", names no subject of its own.
          const [before, after] = phrase.split(/\s+of\s+/i, 2);
          if (ASPECT.test(before?.split(/\s+/).at(-1) ?? '')) {
            const subject = after?.replace(ARTICLE, '');
            const head = subject ? headOf(subject) : undefined;
            return subject
              ? { form: 'other', phrase: subject, ...(head ? { head } : {}) }
              : { form: 'other' };
          }
        }
        const head = headOf(phrase);
        return { form, phrase, ...(head ? { head } : {}) };
      }
    }
  }
  return { form: 'other' };
}
