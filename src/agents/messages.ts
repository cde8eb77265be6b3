/** `"a"`, `"a" or "b"`, `"a", "b" or "c"`: words quoted and joined as a sentence reads them. */
export function quotedList(words: readonly string[], conjunction: 'and' | 'or'): string {
  const quoted = words.map((word) => `"${word}"`);
  return quoted.length < 2
    ? (quoted[0] ?? '')
    : `${quoted.slice(0, -1).join(', ')} ${conjunction} ${quoted.at(-1) as string}`;
}

/** What the work is called when its opening page names it none of its names (see `workNameOf`). */
export const DEFAULT_WORK_NAME = 'book';

/**
 * What the assistant says when it cannot answer, worded exactly as the specs give them
 * (rag-agent-research.md §4 and §6; the issue's extractive wording for "nothing relevant"), naming
 * the work as it names itself: "The documentation does not cover …" over the ROS 2 docs, where
 * "The book …" named a book there is none of.
 *
 * @example
 * answerMessages('documentation').notCovered(['pasta']);
 * // 'The documentation does not cover "pasta", so I can't answer that from it.'
 */
export function answerMessages(work: string = DEFAULT_WORK_NAME) {
  const The = `The ${work}`;
  const the = `the ${work}`;
  return {
    /** Extractive mode and the grounding prompt: nothing relevant retrieved. */
    nothingRelevant: `I couldn't find relevant information about that in ${the}.`,
    /** Extractive mode: the router found the question's subject outside the book. */
    notCovered: (words: readonly string[]) =>
      `${The} does not cover ${quotedList(words, 'or')}, so I can't answer that from it.`,
    /** Extractive mode: a measure was asked ("How heavy is…") and no quoted line gives it. */
    measureNotStated: (measures: readonly string[]) =>
      `${The} does not state the ${measures.join(' or ')} asked about here. The closest passages it has:`,
    /** Extractive mode: the question names a model ("the Unitree G1") no quoted passage names. */
    modelNotNamed: (models: readonly string[]) =>
      `${The} does not say this about the ${models.join(' or ')}: none of the passages below names it. The closest passages it has:`,
    /** Extractive mode: asked whether the book covers something no quoted passage names whole. */
    noPassageOn: (asked: string) =>
      `${The} has no passage on "${asked}" as a whole: the passages below name only part of it. The closest passages it has:`,
    /** Extractive mode: asked whether the book covers something it names only in passing. */
    onlyInPassing: (asked: string) =>
      `${The} mentions "${asked}" only in passing, in the lines below; it has no section on it.`,
    /** Extractive mode: the best quoted passage matches the question only loosely. */
    weakMatch: (relevance: number) =>
      `These passages match the question only loosely (best relevance ${relevance.toFixed(2)}), so ${the} may not answer it as asked. The closest passages it has:`,
    /**
     * With a model: its answer cited only numbers that name no passage it was given (`[7]` of two
     * found). The markers are taken out as the answer streams, so without this line the reader
     * would see an answer with no citations and no word that nothing backs it.
     */
    uncitedAnswer: (numbers: readonly number[]) =>
      `Note: this answer is not backed by ${the}: it cited ${numbers
        .slice(0, 5)
        .map((n) => `[${n}]`)
        .join(
          ', ',
        )}${numbers.length > 5 ? ', …' : ''}, and no passage it was given has ${numbers.length === 1 ? 'that number' : 'those numbers'}.`,
    /** Spec §4: the search tool returned no results. */
    noResults: `I couldn't find relevant information about that topic in ${the}.`,
    /** Spec §4: the retrieval store is unavailable. */
    retrievalUnavailable: `I'm unable to search ${the} right now. The retrieval service is unavailable.`,
    /** Spec §4: the model or embedding service failed. */
    modelFailure: "I'm unable to process your question right now. Please try again.",
    /** Appended to every extractive answer (see {@link extractiveNotice}). */
    extractiveNotice: extractiveNotice(work),
  } as const;
}

/** {@link answerMessages} for a book, as the specs word them. */
export const ANSWER_MESSAGES = answerMessages();

/**
 * Extractive mode's replies to a message that asks nothing of the book (see `socialMessage`): the
 * fallback agent's description promises greetings, and "I couldn't find relevant information"
 * answered "hello", while "thank you, that helps" quoted the book's lines on help-seeking. Only a
 * work taught as a course (`course`, see `taughtAsCourse`) is offered what it needs and how it is
 * organised: over the ROS 2 docs "who are you?" offered "how the course is organised".
 */
export function socialReplies(work: string = DEFAULT_WORK_NAME, course = true) {
  const the = `the ${work}`;
  const asks = course
    ? 'Ask what a term means, how something works, what hardware it needs, or how the course is organised.'
    : 'Ask what a term means, how something works, or how to do something.';
  return {
    greeting: `Hello! Ask me a question about ${the} and I will answer it from ${the}, citing the passages I quote.`,
    identity: `I answer questions about ${the} from ${the} itself: each answer quotes the passages that hold it and cites them. ${asks}`,
    thanks: `You're welcome! Ask me anything else about ${the}.`,
    farewell: `Goodbye! Come back with any question about ${the}.`,
    acknowledgement: `Is there anything else you would like to know from ${the}?`,
  } as const;
}

/** {@link socialReplies} for a book. */
export const SOCIAL_REPLIES = socialReplies();

/**
 * Appended to every extractive answer so a reader knows no model wrote it, naming the work as it
 * names itself ("… quotes the documentation directly" over the ROS 2 docs).
 */
export function extractiveNotice(work: string = DEFAULT_WORK_NAME): string {
  return `_Extractive mode: no language model is configured, so this answer quotes the ${work} directly. Set OPENAI_API_KEY or OPENAI_BASE_URL for generated answers._`;
}

/** {@link extractiveNotice} for a book. */
export const EXTRACTIVE_NOTICE = extractiveNotice();

/** The extractive notice whatever work it names: a merged answer keeps one of its parts' notices. */
export const EXTRACTIVE_NOTICE_PATTERN =
  /_Extractive mode: no language model is configured, so this answer quotes the [\w ]+ directly\. Set OPENAI_API_KEY or OPENAI_BASE_URL for generated answers\._/;
