import { probabilityOf, round, servesIntent, type Phase } from './phase.js';

/**
 * The intent phase (R2 phase 2, then phase 3): the naive Bayes classifier picks the specialist
 * closest to the query, unless the default agent's examples are closer or no specialist reaches
 * the minimum confidence, in which case the default agent takes it. Always decides.
 *
 * @example
 * intentPhase(phaseContext(model, 'Why does my robot drift in simulation?', settings))?.primary; // 'module_info'
 */
export const intentPhase: Phase = (context) => {
  const { model, classification, analyzed, settings, intent } = context;
  const best = classification.ranked.find((entry) => entry.label !== model.defaultAgent);
  const bestIsTop = classification.ranked[0]?.label !== model.defaultAgent;
  const scores = classification.probabilities;
  const fallback = model.defaultAgent;
  if (!bestIsTop || !best) {
    return {
      primary: fallback,
      phase: 'fallback',
      confidence: probabilityOf(context, fallback),
      scores,
      reason:
        `Fallback to ${fallback}: the intent classifier finds the query closest to ${fallback}'s examples ` +
        `(p=${round(probabilityOf(context, fallback))}; best specialist ${best?.label ?? 'none'} p=${round(best?.probability ?? 0)}), intent "${intent}".`,
    };
  }
  const first = context.byKeyword[0];
  if (best.probability < settings.minConfidence) {
    return {
      primary: fallback,
      phase: 'fallback',
      confidence: Math.max(probabilityOf(context, fallback), 1 - best.probability),
      scores,
      reason:
        `Fallback to ${fallback}: no phase is sure — keywords ${first && first.score > 0 ? `best ${first.agent.name} ${first.score}` : 'matched nothing'}, ` +
        `best intent match ${best.label} p=${round(best.probability)} < ${settings.minConfidence}.`,
    };
  }
  const primary = best.label;
  const matched = analyzed.keywords[primary]?.matched ?? [];
  return {
    primary,
    phase: 'intent',
    confidence: best.probability,
    scores,
    reason:
      `Intent phase: "${intent}" question, classifier picks ${primary} with p=${round(best.probability)}` +
      (matched.length > 0 ? ` (keywords: ${matched.join(', ')})` : '') +
      (first && first.score >= settings.threshold && first.agent.name !== primary
        ? `; keywords alone favoured ${first.agent.name} (${first.score}) but ${servesIntent(context, first.agent) ? 'not clearly' : `it does not serve "${intent}" questions`}`
        : '') +
      '.',
  };
};
