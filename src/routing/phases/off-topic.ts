import { outsideDomain, type OutsideDomain } from '../outside-domains.js';
import { pointsBack } from '../clauses.js';
import { thingWords } from '../english-dictionary.js';
import { asksAboutBookStructure } from './book-structure.js';
import { textWords } from '../query-text.js';
import {
  asksLeaveToUseTheWork,
  asksWhomTheWorkThanks,
  namesTheWork,
  withoutTheWork,
} from '../../retrieval/index.js';
import { isArithmetic, type Grounding } from '../subject-grounding.js';
import { namesSubject } from './secondary.js';
import type { AnalyzedQuery } from '../routing-model.js';
import { probabilityOf, quoteWords, round, type Phase, type PhaseContext } from './phase.js';

/**
 * The share of its subject the book must cover for a question no specialist keyword names (only
 * form words such as "how do" or "price", or none) and that uses none of the book's own technical
 * terms (words English does not know, such as "costmap"): with nothing else tying it to the book,
 * a subject that is half elsewhere ("How should I stretch my sore arm joints after the gym?") is
 * not the book's. A question naming a specialist subject needs less: see
 * {@link MIN_GROUNDING_KEYWORD_ONLY}.
 */
export const MIN_GROUNDING_WITHOUT_KEYWORD = 0.5;

/**
 * The share of its subject the book must cover for a question named only by a specialist keyword
 * that is an everyday word ("sensors", "publish", "balance") and by no book term: such a keyword
 * ties the subject to the book less than a book term ("costmap", "Nav2", "G1") does (those need
 * only `routing.minGrounding`), so "What sensors does a smart thermostat use?" needs more of its
 * subject covered than "Sorry, newbie here. What is a costmap?".
 */
export const MIN_GROUNDING_KEYWORD_ONLY = 0.4;

/** Raw confidence of a market, sports or news question's fallback (calibrated afterwards). */
export const OUTSIDE_CONFIDENCE = 0.95;

const OUTSIDE_NAMES: Record<OutsideDomain, string> = {
  market: 'a market (shares, commodities, investing)',
  sports: 'sports',
  news: 'the news',
};

const PURPOSE = 'purpose (what it is asked for)';
const SETTING = 'setting (the field it is asked in)';

/** The first test a question's subject fails, for the reason. */
interface SubjectFailure {
  share: number;
  floor: number;
  words: string[];
  what: string;
}

/** Why a question's subject is not the book's, for the reason: the first test it fails. */
function uncoveredBy(
  grounding: Grounding,
  floor: number,
  minGrounding: number,
): SubjectFailure | undefined {
  if (!grounding.judged) return undefined;
  // A setting put first ("In biology, what is a reward pathway?") is judged first: it is the
  // failure that context after it cannot lift (see offTopicPhase).
  if (grounding.settingFirst) {
    const failure = purposeFailure(grounding, minGrounding);
    if (failure) return failure;
  }
  if (grounding.score < floor)
    return { share: grounding.score, floor, words: grounding.uncovered, what: 'subject' };
  // The words the book covers must meet somewhere: "laptop" and "video" in different chapters
  // do not make "a laptop for video editing" a subject of the book.
  if (grounding.together < minGrounding)
    return {
      share: grounding.together,
      floor: minGrounding,
      words: grounding.uncovered.length > 0 ? grounding.uncovered : grounding.covered,
      what: 'subject in any one passage',
    };
  // What something is wanted for must be the book's too ("the best GPU for playing Cyberpunk"); a
  // setting put first was judged above.
  return grounding.settingFirst ? undefined : purposeFailure(grounding, minGrounding);
}

function purposeFailure(grounding: Grounding, minGrounding: number): SubjectFailure | undefined {
  const purpose = grounding.purpose;
  // A purpose with no keyword word or book term of its own ("for a third-year law student") is
  // held to the higher bar, as a subject is: everyday words alone do not make it the book's.
  const purposeFloor = purpose?.named
    ? minGrounding
    : Math.max(minGrounding, MIN_GROUNDING_WITHOUT_KEYWORD);
  if (purpose?.judged && purpose.score < purposeFloor)
    return {
      share: purpose.score,
      floor: purposeFloor,
      words: purpose.uncovered,
      what: grounding.settingFirst ? SETTING : PURPOSE,
    };
  return undefined;
}

/**
 * Words that name the course itself, what a student takes it with or does in it: "for this
 * course", "for the simulation chapters", "to follow along", "for each student in the lab".
 */
const COURSE_WORDS: ReadonlySet<string> = new Set(
  (
    'course courses class classes book textbook chapter chapters lab labs lesson lessons module ' +
    'modules week weeks exercise exercises assignment assignments tutorial tutorials student ' +
    'students follow along whole entire'
  ).split(' '),
);

/**
 * True when what the question wants something for is the course itself ("Is an old desktop enough
 * for this course?", "… to follow along?"): every word of the purpose names the course or is
 * covered by the book, and one names the course. Such a question asks what the book requires, so
 * everyday words for what is asked about ("desktop", "tower PC", "gigs") do not take it elsewhere.
 */
function servesTheCourse(purpose: Grounding | undefined): boolean {
  if (!purpose?.judged) return false;
  let course = false;
  for (const word of purpose.subject) {
    if (COURSE_WORDS.has(word)) course = true;
    else if (!purpose.covered.includes(word)) return false;
  }
  return course;
}

/** The first test of {@link uncoveredBy} the analysed text fails, at the floor its subject's naming sets. */
function subjectFailure(
  context: PhaseContext,
  analyzed: AnalyzedQuery,
): ReturnType<typeof uncoveredBy> {
  const { settings } = context;
  const grounding = analyzed.grounding;
  if (!grounding) return undefined;
  // A keyword of the question's form alone ("how do", "price") names no subject; one of the
  // book's own technical terms ("costmap") does.
  const bookTerm = grounding.bookTerms.length > 0;
  const namedSubject =
    bookTerm ||
    context.specialists.some((agent) =>
      (analyzed.keywords[agent.name]?.matched ?? []).some(namesSubject),
    );
  const floor = bookTerm
    ? settings.minGrounding
    : namedSubject
      ? Math.max(settings.minGrounding, MIN_GROUNDING_KEYWORD_ONLY)
      : Math.max(settings.minGrounding, MIN_GROUNDING_WITHOUT_KEYWORD);
  const failure = uncoveredBy(grounding, floor, settings.minGrounding);
  if (failure && failure.what !== PURPOSE && servesTheCourse(grounding.purpose)) return undefined;
  return failure;
}

// A word written as technical jargon: capitals throughout ("DQN", "MQTT", "CPGs"), a capital
// inside it after a small letter or before a run of them ("EtherCAT", "gRPC", "CANopen"), or
// letters and digits together ("A2C", "VL53L1X").
const JARGON =
  /^(?:[A-Z]{2,}s?|[A-Z]{2,}[a-z]+|[A-Za-z]*[a-z][A-Z][A-Za-z0-9]*|[A-Za-z0-9]*(?:[A-Za-z]\d|\d[A-Za-z])[A-Za-z0-9]*)$/;

/**
 * True when the subject is only names no lexicon knows (`namesOnly`) and each is written in `ask`
 * as technical jargon (see {@link JARGON}). The word split cuts letters from digits ("VL53L1X" is
 * judged as "vl", "l", "x"), so each run of letters of a jargon token counts.
 */
function definesJargon(grounding: Grounding | undefined, ask: string): boolean {
  if (!grounding?.namesOnly || grounding.uncovered.length === 0) return false;
  const jargon = new Set<string>();
  for (const [token] of ask.matchAll(/[A-Za-z0-9]+/g))
    if (JARGON.test(token))
      for (const [run] of token.toLowerCase().matchAll(/[a-z]+/g)) jargon.add(run);
  return grounding.uncovered.every((word) => jargon.has(word));
}

/**
 * The subject phase: arithmetic, and questions whose subject the book does not cover (judged from
 * the book knowledge), go to the default agent with a reason naming the uncovered words. A subject
 * is not the book's when (1) too little of it is covered — the bar is lowest when a book term
 * names it, higher when only an everyday specialist keyword does (see
 * {@link MIN_GROUNDING_KEYWORD_ONLY}) and higher still when nothing does (see
 * {@link MIN_GROUNDING_WITHOUT_KEYWORD}); (2) the covered words never meet in
 * one passage of the book (`Grounding.together`); or (3) the question asks for something *for* a
 * purpose the book does not cover (`Grounding.purpose`). Tests 2 and 3 use `routing.minGrounding`.
 *
 * @example
 * offTopicPhase(phaseContext(model, "What does 'wanderlust' mean?", settings))?.primary; // 'book'
 */
export const offTopicPhase: Phase = (context) => {
  const { model, analyzed } = context;
  const grounding = analyzed.grounding;
  const arithmetic = isArithmetic(analyzed.text);
  let failed = subjectFailure(context, analyzed);
  let askOutside = false;
  // Context before the ask ("Sorry, dumb question. SLAM is short for what?") does not make a
  // question off-topic when the ask names a subject of its own (a specialist's keyword word or a
  // book term) that the book covers; an ask with no subject of its own ("What is it really?",
  // "How do I stop it?") is judged with its context. Two everyday words the book uses are not
  // enough: "My bank account was hacked. What is a security key?" is the context's subject (found
  // by an outside review of a rule that let them through).
  // A setting put before the ask ("In economics, what is a policy?") is the ask's own, not context.
  // Leave to copy, share or adapt the work ("Can I translate a chapter and put it on my blog?")
  // is asked of its licence, whatever it says of where the copy goes, when the book has one.
  if (failed && model.knowledge?.knowledge.licencePage && asksLeaveToUseTheWork(context.query))
    failed = undefined;
  // "Who are the authors grateful to?" is asked of the book's acknowledgments, when it has them.
  if (failed && model.knowledge?.knowledge.acknowledgments && asksWhomTheWorkThanks(context.query))
    failed = undefined;
  const settingFailed = failed?.what === SETTING;
  if (failed && context.ask !== context.query && !settingFailed) {
    const ask = model.analyze(context.ask);
    // An ask about the course itself ("I'm stuck on a concept. Where can I get help in this
    // course?") is the book's whatever the context says of the reader; one that points back at the
    // context ("Does the book explain why they do that?") is the context's subject.
    if (
      (ask.grounding?.named ||
        (namesTheWork(ask.text.words) && !pointsBack(withoutTheWork(context.ask)))) &&
      !subjectFailure(context, ask)
    )
      failed = undefined;
  } else if (
    !failed &&
    context.intent === 'definition' &&
    context.ask !== context.query &&
    !pointsBack(context.ask)
  ) {
    // Nor does context make a term to define the book's: "I work with ROS 2 robots all day. What
    // is photosynthesis?" asks about a term none of whose words the book uses. (An ask of another
    // form may name no subject at all: "Our robot never starts walking. Where should we look?")
    // The arbiter does not review it (`certain`): the context's words are all that tie it to the
    // book, and they are what a learnt review would weigh.
    const ask = model.analyze(context.ask);
    if (ask.grounding?.judged && ask.grounding.covered.length === 0) {
      failed = subjectFailure(context, ask);
      askOutside = failed !== undefined;
    }
  }
  // R3: the glossary defines a term of any domain. A term to define that no lexicon knows and
  // that is written as technical jargon ("What does DQN stand for?", "define EtherCAT", "A2C = ?")
  // names something the book may not cover, but no everyday thing either (those English knows:
  // "NASA", "GDP"), so it is the glossary's, not a subject the book never names.
  if (failed && context.intent === 'definition' && definesJargon(grounding, context.ask))
    failed = undefined;
  const primary = model.defaultAgent;
  const knowledge = model.knowledge;
  // Markets, sports and news: no company or product the book names makes them its subject.
  const outside =
    grounding && knowledge
      ? outsideDomain(
          analyzed.text,
          (word, i) => knowledge.termStrength(analyzed.text.stems[i] ?? word, word) >= 0.5,
        )
      : undefined;
  if (!arithmetic && outside && grounding)
    return {
      primary,
      phase: 'fallback',
      confidence: Math.max(probabilityOf(context, primary), OUTSIDE_CONFIDENCE),
      scores: context.classification.probabilities,
      offTopic: {
        subject: grounding.subject,
        uncovered: outside.words,
        certain: true,
      },
      reason:
        `Fallback to ${primary}: the question is about ${OUTSIDE_NAMES[outside.domain]} ` +
        `(${quoteWords(outside.words)}), which the book does not cover.`,
    };
  if (!arithmetic && !failed) return undefined;
  // "What parts is the book divided into?" asks about the book's own structure, and "divided" is
  // how it asks, not a subject the book lacks: the structure phase answers it. A thing named in
  // such an ask ("Is there a chapter on baking bread?") is still judged here.
  if (
    !arithmetic &&
    failed &&
    asksAboutBookStructure(textWords(context.query).joined) &&
    thingWords(failed.words).length === 0
  )
    return undefined;
  const uncovered = failed?.words ?? [];
  return {
    primary,
    phase: 'fallback',
    confidence: Math.max(probabilityOf(context, primary), 1 - (failed?.share ?? 0)),
    scores: context.classification.probabilities,
    ...(arithmetic || !grounding || uncovered.length === 0
      ? {}
      : {
          offTopic: {
            subject: grounding.subject,
            uncovered,
            // A term asked in a field the book does not cover ("In finance, what is a margin
            // call?") is certain too: the book's sentences that share its words ("an inflated
            // safety margin") use them in another sense, and the fallback quoted them.
            ...(grounding.namesOnly || askOutside || settingFailed ? { certain: true } : {}),
          },
        }),
    reason:
      arithmetic || !failed
        ? `Fallback to ${primary}: arithmetic is not something the book covers.`
        : `Fallback to ${primary}: the book does not cover ${quoteWords(uncovered)} ` +
          `(the book's share of the question's ${failed.what} is ${round(failed.share)} < ${failed.floor}).`,
  };
};
