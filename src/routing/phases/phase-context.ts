import type { Agent } from '../../agents/index.js';
import type { IntentCue } from '../intent-cues.js';
import type { KnownForm, RoutingModel } from '../routing-model.js';
import type { PhaseContext, PhaseSettings, RankedKeywords } from './phase.js';

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
  // Strongest first, ties in the agents' order (as a stable sort by score gives them): each
  // specialist's entry moved up past those it outranks, as it is made.
  const byKeyword: RankedKeywords[] = [];
  for (const agent of specialists) {
    // Field by field, not spread (a spread looks the object's shape up on every clause).
    const { score, matched } = analyzed.keywords[agent.name]!;
    const entry = { agent, score, matched };
    let at = byKeyword.length;
    byKeyword.push(entry);
    while (at > 0 && score > byKeyword[at - 1]!.score) {
      byKeyword[at] = byKeyword[at - 1]!;
      at -= 1;
    }
    byKeyword[at] = entry;
  }
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
