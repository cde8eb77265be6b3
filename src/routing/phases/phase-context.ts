import type { IntentCue } from '../intent-cues.js';
import type { KnownForm, RoutingModel } from '../routing-model.js';
import type { PhaseContext, PhaseSettings } from './phase.js';

/**
 * Analyses `query` once for every phase: its words, keyword evidence, the classifier's
 * probabilities and the question's form. `form` overrides the detected form when the query is one
 * ask among context ("Sorry if this is basic. What is X?"); `known` saves detecting the forms again
 * in the same words.
 *
 * @example
 * const context = phaseContext(model, 'What is a topic?', settings);
 * context.intent; // 'definition'
 */
export function phaseContext(
  model: RoutingModel,
  query: string,
  settings: PhaseSettings,
  form?: IntentCue,
  known?: KnownForm,
): PhaseContext {
  const analyzed = model.analyze(query, known);
  const classification = model.classifier.classify(analyzed.features, analyzed.bundles);
  const specialists = model.agents.filter((agent) => agent.name !== model.defaultAgent);
  const byKeyword = specialists
    .map((agent) => ({ agent, ...analyzed.keywords[agent.name]! }))
    .sort((a, b) => b.score - a.score);
  return {
    model,
    query,
    ask: known?.text ?? query,
    analyzed,
    classification,
    intent: form ?? analyzed.cues.intent,
    specialists,
    byKeyword,
    definer: specialists.find((agent) => agent.intents.includes('definition')),
    settings,
  };
}
