import {
  namesTheWork,
  namesWritten,
  withoutAskingManner,
  withoutTheWork,
  WORK_NAMES,
  workNamePattern,
} from '../../retrieval/index.js';
import type { OffTopicSubject } from '../../schema/index.js';
import { pointsBack, splitClauses, type Clause } from '../clauses.js';
import { thingWords } from '../english-dictionary.js';
import { detectIntentCues, isBareTerm, type IntentCue } from '../intent-cues.js';
import { textWords } from '../query-text.js';
import type { KnownForm, RoutingModel } from '../routing-model.js';
import { decideClause, type Decision } from './decide-clause.js';
import type { PhaseSettings } from './phase.js';
import { namesSubject } from './secondary.js';

/** A clause of a compound question names a secondary agent at this probability or more. */
export const CLAUSE_MIN_PROBABILITY = 0.5;

/** One ask of a multi-part question and the agent it needs. */
export interface ClauseRoute {
  text: string;
  agent: string;
  probability: number;
  keywordScore: number;
  /** Decided with the subject words of the ask before, which it points back at. */
  withSubjectBefore: boolean;
}

/**
 * Later asks of one question decided with the ask before's subject, at most (each is decided
 * twice): a question of dozens of "…, and what does it cost?" asks costs what one of a few does.
 */
export const MAX_ASKS_WITH_SUBJECT_BEFORE = 4;

/** A decision about a whole question, with the route of each of its asks when it has several. */
export interface QueryDecision extends Decision {
  clauses: ClauseRoute[];
}

// True when a specialist keyword in a clause names a subject, not only a form ("how do").
const keywordNamesSubject = ({ analyzed }: Decision) =>
  Object.values(analyzed.keywords).some((match) => match.matched.some(namesSubject));

/**
 * Words an ask needs for one word the book does not cover to be its subject: "How do vaccines
 * work" says what it asks; "What processor" and "Which laptop brand" lean on the ask after them.
 */
export const MIN_WORDS_OF_A_WHOLE_ASK = 4;

// True when a clause says what it is about (a keyword that names a subject, or a word the book
// covers): "and how do we deploy it?" and "and what does it mean?" (only keywords of the form) do
// not, so the whole question decides for them.
const hasSubject = (decision: Decision) =>
  keywordNamesSubject(decision) ||
  (decision.analyzed.grounding?.covered.length ?? 0) > 0 ||
  // A subject the book does not cover is a subject too, when two of its words say so ("What's
  // the capital of Peru, and what does VSLAM stand for?" first asks about Peru, which the fallback
  // agent answers), or one in an ask of its own sentence's length ("How do vaccines work, and
  // what is a ROS 2 topic?"); "What processor and how much RAM does the workstation need?" asks
  // about the workstation in both asks.
  (decision.result.offTopic?.uncovered.length ?? 0) >= 2 ||
  ((decision.result.offTopic?.uncovered.length ?? 0) === 1 &&
    decision.analyzed.text.words.length >= MIN_WORDS_OF_A_WHOLE_ASK);

/**
 * True when an ask names a thing the book does not cover: a sports result or market (`certain`),
 * a name ("what's the weather in Paris"), or two things ("the best pizza topping"); not words it
 * does not use for what the question before it is about ("what should we cut", "what does it
 * involve", "give me the gist of the chapter", "what datasets exist for quizzing a model").
 */
function namesThingOutside(offTopic: OffTopicSubject, ask: string): boolean {
  if (offTopic.certain) return true;
  // "…, and notice faults itself?" goes on with the question before it in a few words.
  if (pointsBack(ask) || textWords(ask).words.length < MIN_WORDS_OF_A_WHOLE_ASK) return false;
  const names = namesWritten(ask);
  if (offTopic.uncovered.some((word) => names.has(word))) return true;
  const things = thingWords(offTopic.uncovered);
  // Every word of its subject outside the book: "the gist of the chapter on controlling
  // humanoids" is about the book's humanoids.
  return things.length >= 2 && offTopic.subject.every((word) => offTopic.uncovered.includes(word));
}

// True when a clause names a subject itself: a specialist keyword that names one, or a term of
// the book's own ("costmap"); words the book merely uses ("power", "trained") do not.
const namesOwnSubject = (decision: Decision) =>
  keywordNamesSubject(decision) || (decision.analyzed.grounding?.bookTerms.length ?? 0) > 0;

// "an AMD one", "a cheaper one": "one" standing for another thing of the kind named before, which
// the ask names itself; not the thing named before ("what does one cost?").
const ANOTHER_ONE = /\b(?:a|an|the|another) (?:[\w-]+ )?one\b/i;

// "What's USD, the scene format Isaac Sim uses?": the words before the comma are the ask.
// The forms found in the ask's words come back too: the whole question, when it has the same
// words, need not look for them again.
function formOf(text: string, afterContext: boolean): { intent: IntentCue; known: KnownForm } {
  const read = textWords(text);
  const words = read.words;
  const cues = detectIntentCues(words, read.joined);
  // The ask's own text only when context comes before it: otherwise the whole text is the ask.
  const known = afterContext ? { words, cues, text } : { words, cues };
  const comma = text.indexOf(',');
  if (cues.intent === 'definition' || comma < 0) return { intent: cues.intent, known };
  const head = textWords(text.slice(0, comma));
  return {
    intent:
      detectIntentCues(head.words, head.joined).intent === 'definition'
        ? 'definition'
        : cues.intent,
    known,
  };
}

/**
 * Routes a whole question: one ask (after any context) is decided as one clause with the ask's
 * form; a multi-part question takes its primary agent from its first ask, and each later ask that
 * names a different specialist with confidence adds it as a secondary agent.
 *
 * @example
 * decideQuery(model, 'How do URDF joints work, and what does revolute mean?', settings).result.secondaryAgents; // ['glossary']
 */
export function decideQuery(
  model: RoutingModel,
  typed: string,
  settings: PhaseSettings,
): QueryDecision {
  // "Waht is a costmap?": the asks and their forms are read with the question words as meant.
  const read = model.readQuestionWords(typed);
  const decision = decideRead(model, read.text, settings);
  if (read.corrections.length === 0) return decision;
  const said = read.corrections.map(([slip, word]) => `"${slip}" as "${word}"`).join(', ');
  decision.result.routingReason += ` (read ${said})`;
  decision.result.readAs = [...read.corrections, ...(decision.result.readAs ?? [])];
  return decision;
}

// "Which IMU does the book suggest?": the book named as the source of a recommendation, inside
// an ask about something else, is not a question about the book ("Does the book mention
// Gazebo?", which opens with it, is). Read as "Which IMU is suggested?".
// The work as every reader names it (work-names.ts: "the guide", "the docs", "this class"), or
// its authors.
const BOOK_AS_SOURCE = new RegExp(
  String.raw`(?<=\w[\s,]+)\b(?:does|do|did|would) (?:${workNamePattern('the|this|our|your')}|(?:the|this|our|your) (?:author|authors)) (suggest|recommend|advise|use|pick|mention|propose|prefer)\b`,
  'gi',
);
// Every match names one of these words: most questions have none, and then the expression
// above, whose look-behind is tried at every word, is not run.
const BOOK_WORDS = new RegExp([...WORK_NAMES, 'class', 'author'].join('|'), 'i');
/**
 * `query` with the work named as the source of what it asks read away ("Which IMU does the guide
 * suggest?" → "Which IMU is suggested?").
 */
export const asSourceless = (query: string): string =>
  BOOK_WORDS.test(query)
    ? query.replace(BOOK_AS_SOURCE, (_, verb: string) =>
        /e$/.test(verb) ? `is ${verb.toLowerCase()}d` : `is ${verb.toLowerCase()}ed`,
      )
    : query;

/** One ask of a multi-part question as decided. */
interface Part {
  ask: Clause;
  /** The text it was decided on: the ask's, with the subject before it when it points back. */
  asked: string;
  decision: Decision;
  /** Its agent may be a secondary without a keyword of its own (see {@link laterAsk}). */
  pointedBack: boolean;
  /** Decided with the subject words of the ask before it, which it points back at. */
  withSubjectBefore: boolean;
}

/**
 * Decides an ask after the first. One that points back and names no subject of its own ("What's
 * a Jetson AGX Orin, and how much power does it draw?", "What is a service dog, and how are they
 * trained?") asks about what the ask before it named: it is decided with that ask's subject words
 * (not its form: "What does IMU stand for, and which one should I buy?" asks which IMU to buy),
 * its form its own. One that names its own ("… and what lidar would I buy for it?") is decided
 * alone.
 */
function laterAsk(
  model: RoutingModel,
  ask: Clause,
  before: Decision,
  settings: PhaseSettings,
  mayLookBack: boolean,
): Part {
  const decision = decideClause(model, ask.text, settings);
  const subject = before.analyzed.grounding?.subject ?? [];
  if (
    !mayLookBack ||
    subject.length === 0 ||
    // "…, and what does this guide cover?": "this" names the work, not what was asked before.
    !pointsBack(withoutTheWork(ask.text)) ||
    ANOTHER_ONE.test(ask.text) ||
    namesOwnSubject(decision)
  )
    return { ask, asked: ask.text, decision, pointedBack: false, withSubjectBefore: false };
  const form = formOf(ask.text, true);
  const asked = `${ask.text} ${subject.join(' ')}`;
  return {
    ask,
    asked,
    decision: decideClause(model, asked, settings, form.intent, form.known),
    // Its agent counts without a keyword of its own only when its form says what it asks ("how
    // much power…" asks specs; "what are they called?" says nothing of its own).
    pointedBack: form.intent !== 'general',
    withSubjectBefore: true,
  };
}

function decideRead(model: RoutingModel, typed: string, settings: PhaseSettings): QueryDecision {
  // "… in plain English?", "in a nutshell": how the answer should be put is no part of its
  // subject (the ranker reads the question the same way).
  const query = withoutAskingManner(asSourceless(typed));
  const clauses = splitClauses(query);
  const asks = clauses.filter((clause) => clause.ask);
  // One ask after some context: the ask gives the form, the whole text the subject.
  const single = asks.length === 1 ? asks[0] : asks.length === 0 ? clauses[0] : undefined;
  if (asks.length < 2) {
    const form = single ? formOf(single.text, clauses.length > 1) : undefined;
    // A bare term ("URDF?", "SLAM = ?") asks what the term is (R3), whatever its domain.
    const intent = isBareTerm(query) ? 'definition' : form?.intent;
    const whole = decideClause(model, query, settings, intent, form?.known);
    // Field by field, not by spreading: routing's most common path, and a spread copies by
    // looking the object's shape up every time.
    return {
      result: whole.result,
      analyzed: whole.analyzed,
      classification: whole.classification,
      clauses: [],
    };
  }

  // Context before a first ask that points back at it is that ask's subject ("My PC has a GTX
  // 1060, can it handle the sim, or do I need an upgrade?": "it" is the PC): the first ask is then
  // decided with it, its form its own. Context an ask does not point back at ("Sorry if this is
  // basic.") stays out of it.
  const firstAsk = clauses.findIndex((clause) => clause.ask);
  const lead =
    firstAsk > 0 && pointsBack(clauses[firstAsk]!.text)
      ? clauses
          .slice(0, firstAsk + 1)
          .map((clause) => clause.text)
          .join(' ')
      : undefined;
  const parts: Part[] = [];
  let lookedBack = 0;
  for (const [i, ask] of asks.entries()) {
    if (i === 0) {
      const form = lead === undefined ? undefined : formOf(ask.text, true);
      parts.push({
        ask,
        asked: ask.text,
        decision: form
          ? decideClause(model, lead!, settings, form.intent, form.known)
          : decideClause(model, ask.text, settings),
        pointedBack: false,
        withSubjectBefore: false,
      });
      continue;
    }
    const part = laterAsk(
      model,
      ask,
      parts[i - 1]!.decision,
      settings,
      lookedBack < MAX_ASKS_WITH_SUBJECT_BEFORE,
    );
    if (part.withSubjectBefore) lookedBack += 1;
    parts.push(part);
  }
  // The whole question decides only when its first ask names no subject: decided only then.
  const head =
    parts[0] && hasSubject(parts[0].decision)
      ? parts[0].decision
      : decideClause(model, query, settings, undefined);
  const primary = head.result.primaryAgent;
  const definer = model.agents.find(
    (agent) => agent.name !== model.defaultAgent && agent.intents.includes('definition'),
  );
  const secondary: string[] = [];
  const secondaryAsks: Record<string, string> = {};
  let secondaryOffTopic: Record<string, OffTopicSubject> | undefined;
  // The asks a secondary agent answers: the primary answers the rest of the question.
  const answeredElsewhere = new Set<Clause>();
  const give = (agent: string, ask: Clause, asked: string) => {
    secondary.push(agent);
    secondaryAsks[agent] = asked;
    answeredElsewhere.add(ask);
  };
  for (const { ask, asked, decision, pointedBack } of parts.slice(1)) {
    const agent = decision.result.primaryAgent;
    const offTopic = decision.result.offTopic;
    if (agent === model.defaultAgent && agent !== primary && !secondary.includes(agent)) {
      // "…, and how long is the course?", "Also, who wrote this book?": a later ask about the
      // work itself is the default agent's, which answers it from the book's opening page.
      if (namesTheWork(textWords(ask.text).words)) give(agent, ask, asked);
      // "…, and what's the price of gold today?": so is a later ask whose subject the book does
      // not cover, which it says so for; the primary answers the rest.
      else if (
        decision.result.phase === 'fallback' &&
        offTopic &&
        namesThingOutside(offTopic, ask.text)
      ) {
        give(agent, ask, asked);
        secondaryOffTopic = { [agent]: offTopic };
      }
      continue;
    }
    if (
      agent !== primary &&
      agent !== model.defaultAgent &&
      decision.result.phase !== 'fallback' &&
      decision.result.confidence >= CLAUSE_MIN_PROBABILITY &&
      hasSubject(decision) &&
      // An ask decided with the one before it names its subject there, not by a keyword.
      (agent === definer?.name ||
        pointedBack ||
        (decision.analyzed.keywords[agent]?.score ?? 0) > 0) &&
      !secondary.includes(agent)
    )
      give(agent, ask, asked);
  }
  const primaryAsk = clauses
    .filter((clause) => !answeredElsewhere.has(clause))
    .map((clause) => clause.text)
    .join('. ');
  const clauseRoutes: ClauseRoute[] = parts.map(({ ask, decision, withSubjectBefore }) => ({
    text: ask.text,
    agent: decision.result.primaryAgent,
    probability: decision.result.confidence,
    keywordScore: decision.analyzed.keywords[decision.result.primaryAgent]?.score ?? 0,
    withSubjectBefore,
  }));
  const reason =
    `Multi-part question (${asks.length} asks); first ask "${parts[0]?.ask.text ?? ''}": ${head.result.routingReason}` +
    (secondary.length > 0
      ? ` Later asks need: ${secondary.map((agent) => `${agent} ("${clauseRoutes.find((c) => c.agent === agent)?.text ?? ''}")`).join(', ')}.`
      : '');
  // Every ask's slips, not only the deciding one's: the agents answer the whole question.
  const readAs = [head, ...parts.map((part) => part.decision)]
    .flatMap((decision) => decision.result.readAs ?? [])
    .filter(([typo], i, all) => all.findIndex(([other]) => other === typo) === i);
  // `head.result` is this question's own (decided above, read by nothing after this), so it is
  // completed in place, field by field, rather than copied with spreads: a multi-part question's
  // spreads of a result whose shape varies, and of objects made only to be spread, went through
  // the engine's slow path and were about a sixth of routing such a question. The keys come out
  // in the order the spreads gave them: the result's own, then the asks, the off-topic subject,
  // and the slips when the result had none.
  const result = head.result;
  result.secondaryAgents = secondary;
  result.isMultiDomain = secondary.length > 0;
  if (secondary.length > 0) {
    result.secondaryAsks = secondaryAsks;
    result.primaryAsk = primaryAsk;
  }
  if (secondaryOffTopic) result.secondaryOffTopic = secondaryOffTopic;
  result.routingReason = reason;
  if (readAs.length > 0) result.readAs = readAs;
  return {
    result,
    analyzed: head.analyzed,
    classification: head.classification,
    clauses: clauseRoutes,
  };
}
