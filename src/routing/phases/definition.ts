import { probabilityOf, type Phase } from './phase.js';

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
  const askHead = ask.split(',')[0] ?? ask;
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
