import { WORK_NAMES, workNamePattern } from '../../retrieval/index.js';
import { probabilityOf, type Phase } from './phase.js';

// The work as every reader names it (work-names.ts: "in the guide", "as this class uses it"), or
// a book or course named with no pointer ("in textbooks").
const BOOK_AS_SOURCE = new RegExp(
  String.raw`\s+(?:in|as|by|according to|as used in|as defined in|the way)\s+(?:${workNamePattern('this|the|our|your|my')}|(?:book|textbook|course)s?(?:['’]s)?\b).*$|\s+as ${workNamePattern('the|this')} (?:uses|means|defines) it\b.*$`,
  'i',
);
// Every match names the work: most asks do not, and are not searched with the expression above
// at every space.
const BOOK_OR_COURSE = new RegExp([...WORK_NAMES, 'class'].join('|'), 'i');

/**
 * The definition phase (R3): "What is X?" goes to the agent that defines terms, for a term of any
 * domain, unless it asks about the book itself ("What is the book's license?") or nothing ties the
 * question to the book.
 *
 * @example
 * definitionPhase(phaseContext(model, 'What exactly is a node in ROS 2?', settings))?.primary; // 'glossary'
 */
export const definitionPhase: Phase = (context) => {
  const { model, analyzed, query, ask, definer, specialists } = context;
  if (context.intent !== 'definition' || !definer) return undefined;
  // Judged on the ask itself: "What's Gazebo, the simulator the course uses?" defines Gazebo.
  // Context before the ask ("We're reading the RL chapter this week.") does not make it a
  // question about the book.
  // A closing qualifier that names the book as the source of the term ("whats a jacobian in this
  // book's sense", "… as the book uses it") places the term; it does not ask about the book.
  const head = ask.split(',')[0] ?? ask;
  const askHead = BOOK_OR_COURSE.test(head) ? head.replace(BOOK_AS_SOURCE, '') : head;
  const askKeywords = askHead === query ? analyzed.keywords : model.keywords(askHead).keywords;
  const aboutTheBook = (askKeywords[model.defaultAgent]?.score ?? 0) > 0;
  if (aboutTheBook || !(analyzed.onTopic || analyzed.grounding?.judged)) return undefined;
  const primary = definer.name;
  const matched = specialists
    .filter((agent) => agent !== definer && (analyzed.keywords[agent.name]?.score ?? 0) > 0)
    .map((agent) => agent.name);
  return {
    primary,
    phase: 'intent',
    confidence: Math.max(probabilityOf(context, primary), 0.5),
    scores: context.classification.probabilities,
    reason:
      `Intent phase: a definition question ("What is X?", "define X"), which ${primary} answers for a term of any domain (R3)` +
      (matched.length > 0 ? `; the term is also ${matched.join(' and ')} vocabulary` : '') +
      '.',
  };
};
