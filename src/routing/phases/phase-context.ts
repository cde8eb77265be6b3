import type { Agent } from '../../agents/index.js';
import type { IntentCue } from '../intent-cues.js';
import type { KnownForm, RoutingModel } from '../routing-model.js';
import { rankedBy } from '../ranked-by.js';
import type { PhaseContext, PhaseSettings } from './phase.js';

const byScore = (entry: { score: number }) => entry.score;

// A model's agents never change (a new set of agents is a new model): its specialists and its
// definer are found once per model, not on every clause of every question.
const casts = new WeakMap<RoutingModel, { specialists: Agent[]; definer: Agent | undefined }>();

function castOf(model: RoutingModel): { specialists: Agent[]; definer: Agent | undefined } {
  let cast = casts.get(model);
  if (!cast) {
    const specialists = model.agents.filter((agent) => agent.name !== model.defaultAgent);
    cast = {
      specialists,
      definer: specialists.find((agent) => agent.intents.includes('definition')),
    };
    casts.set(model, cast);
  }
  return cast;
}

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
  const { specialists, definer } = castOf(model);
  // Strongest first, ties in the agents' order (as a stable sort by score gives them).
  const byKeyword = rankedBy(
    specialists.map((agent) => {
      // Field by field, not spread (a spread looks the object's shape up on every clause).
      const { score, matched } = analyzed.keywords[agent.name]!;
      return { agent, score, matched };
    }),
    byScore,
  );
  return {
    model,
    query,
    ask: known?.text ?? query,
    analyzed,
    classification,
    intent: form ?? analyzed.cues.intent,
    specialists,
    byKeyword,
    definer,
    settings,
  };
}
