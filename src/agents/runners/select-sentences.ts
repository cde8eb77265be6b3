import {
  asksAboutReleases,
  asksAboutTheCourse,
  asksForCode,
  asksHowTo,
  comparedSides,
  headingPathOf,
  isReleaseNotes,
  namesReleasePage,
  listsTopicsOnly,
} from '../../retrieval/index.js';
import type { AnswerStyle, RetrievedChunk } from '../../schema/index.js';
import { questionSubject, type QuestionSubject } from './question-subject.js';

import { listAsked } from './list-asked.js';
import { siblingSections } from './sibling-sections.js';
import { modelNames } from './model-names.js';
import {
  passageSentences,
  type PassageSentence,
  type PassageSentences,
} from './passage-sentences.js';
import { subjectAsWritten } from './subject-as-written.js';
import { introducedCode, namesCommand, tabAsked } from './introduced-code.js';
import { pointsElsewhere } from './pointer-sentences.js';
import {
  headingIsQuestion,
  headingSharesQuestion,
  itemsAsked,
  listRun,
  WHOLE_LIST_ITEMS,
  withFirstDetail,
} from './whole-list.js';

/** A sentence chosen for an extractive answer. */
export interface SelectedSentence {
  text: string;
  /** Index of its chunk in the retrieved list. */
  chunk: number;
  position: number;
  score: number;
  /** A list item or table row, shown as a list line rather than prose. */
  listItem: boolean;
  /** The code block the sentence introduces, quoted after it as code (see `introducedCode`). */
  code?: string;
  /** Which system or language the code is for ("Linux"), written before it. */
  codeLabel?: string;
}

/** Options of {@link selectSentences}. */
export interface SelectOptions {
  /** Turns text into comparable terms (stemmed, stopwords removed). */
  terms: (text: string) => string[];
  /**
   * Turns the question into its topic terms, without the words of asking ("explain", "work");
   * `terms` when not given.
   */
  queryTerms?: (text: string) => string[];
  /** The agent's answer style; a question's own form (definition, explanation) takes precedence. */
  style: AnswerStyle;
  /** How many sentences at most. */
  max?: number;
  /** Relevance vs novelty trade-off of maximal marginal relevance (1 = relevance only). */
  lambda?: number;
  /**
   * Chunks scoring under this share of the best chunk are left out (default
   * {@link RELATIVE_CUTOFF}): the tail of a ranking rarely answers the question.
   */
  relativeCutoff?: number;
  /** Sentences scoring under this share of the best sentence are left out (default 0.4). */
  sentenceCutoff?: number;
  /**
   * Most sentences quoted from one passage (default 2), so the answer draws on the next passages
   * too: the best-ranked passage is right about three times in five, one of the top three nine
   * times in ten.
   */
  maxPerChunk?: number;
  /** What the question asks about; read from `query` when not given. */
  subject?: QuestionSubject;
  /**
   * A passage's sentences with their terms (made with `terms`); split and analysed on every call
   * when not given (the extractive runner keeps them, see `cachedPassageSentences`).
   */
  sentences?: PassageSentences;
  /**
   * Quote only sentences that name the question's subject, however minor a word of the question it
   * is (the router found the question off-topic: a quote must show the book covers it).
   */
  requireSubject?: boolean;
  /**
   * The next part of a passage's section, where a long section was cut into chunks: the index in
   * `chunks` of each passage's next part. It continues a list asked for that runs to the end of its
   * passage ("Lease Duration", the last QoS policy, is in the section's second chunk); one that was
   * not retrieved itself (`metadata.nextPartOnly`) gives no sentence of its own.
   */
  continuations?: ReadonlyMap<number, number>;
}

/**
 * Default share of the best passage's score a passage needs to be quoted. The score counts the
 * question's own words (synonyms at half weight), and a question in the reader's words shares few
 * of them with the section that answers it: the ranking found that section through synonyms, but
 * its score stayed under 0.6 of a passage matching one incidental word well. At 0.45 (0.6 before)
 * the tuning answer sets cite a gold section as often or more (sixth set 0.922 → 0.932), and every
 * lower value measured (0.3, 0.2, 0) gave the same figures as 0.45.
 */
export const RELATIVE_CUTOFF = 0.45;

/** Weights of a sentence's score; named so each one's job is readable. */
const WEIGHTS = {
  /** Share of the question's terms the sentence (or its section heading) contains. */
  coverage: 0.45,
  /** The chunk's score relative to the best chunk: the ranking's judgement of the passage. */
  rank: 0.35,
  /** The sentence defines the asked-about subject ("Topics: named buses …", "A topic is …"). */
  definesSubject: 0.45,
  /** An explanation starts well from what the subject is, and goes on with its steps. */
  explainsSubject: 0.25,
  step: 0.15,
  /** The sentence names the subject at all. */
  namesSubject: 0.1,
  /** Headings count for less than the sentence's own words. */
  heading: 0.5,
  /** A how-to question ("How do I record a topic?") is answered by a sentence bringing a command. */
  introducesCommand: 0.2,
  /** A sentence pointing to other text ("The text below explains …") says less than its words. */
  pointsElsewhere: 0.1,
} as const;

/**
 * A sentence that goes on about what the one before it named, its subject a pronoun: "ROS 2
 * introduces lifecycle nodes … This is particularly important for:".
 */
const CONTINUES =
  /^(?:this|these|it|they)\s+(?:is|are|was|were|can|also|makes?|allows?|enables?|helps?|matters?)\b/i;
const SPEC_UNIT =
  /\b\d+(?:\.\d+)?\s*(?:gbps|mbps|gb\/s|mb\/s|gb|tb|mb|w|watts?|tops|tflops|hz|ghz|mhz|fps|kg|m|cm|mm|v|mah|hours?|h|cores?|%)(?![a-z])|\$\s?\d|\b(?:rtx|gtx|jetson|orin|ram|vram|cpu|gpu|ubuntu)\b/i;
const GUIDANCE =
  /\b(first|then|next|finally|step|should|must|check|make sure|milestone|phase|week)\b/i;
const EXPLANATION =
  /\b(because|so that|which|allows?|enables?|works? by|in order to|when|by|through|uses?|sends?|receives?|publish\w*|subscrib\w*)\b/i;
/** "Term: what it is" — how textbooks write a definition as a list item or a bold lead-in. */
const LABELLED = /^([^:]{1,60}):\s+\S/;
/**
 * "is" or "are" as a definition says it ("A topic is a named bus"), not before a participle: "A
 * ROS 2 security enclave is established with six files" says what is done to the enclave, where
 * "A security enclave encapsulates a single policy …" says what it is ("is defined as", "is
 * called", "is known as" and "is used to" still define).
 */
const IS =
  '(?:is|are)(?!\\s+(?:\\w+ly\\s+)?(?!(?:called|defined|known|used)\\b)(?:\\w{2,}ed|built|made|written|sent|kept|held|run|done|given|taken|shown|known)\\b)';
const DEFINITION = new RegExp(`\\b(?:${IS}|refers to|means|stands for|describes?)\\b`, 'i');
/** "Term is / are / refers to …": the defined words come before the verb, early in the sentence. */
const COPULA = new RegExp(
  `^(.{1,80}?)\\s+(?:${IS}|refers to|means|stands for|is called|are called|defines)\\b`,
  'i',
);

/**
 * "A security enclave encapsulates …", "Nav2 provides …": a sentence opening with a short noun
 * phrase and a verb in the present ("…s") says what its subject does, which defines it when the
 * phrase is the subject asked (see `defines`). Up to four words, so the verb is the first one.
 */
const SUBJECT_VERB =
  /^((?:(?:[Aa]n?|[Tt]he)\s+)?(?:[\w-]+\s+){0,3}?[\w-]+)\s+(?!is\b|was\b|has\b)[a-z]+[a-rt-z]s\b/;

function styleBonus(style: AnswerStyle, text: string, listItem: boolean, position: number): number {
  switch (style) {
    case 'definition':
      return (DEFINITION.test(text.slice(0, 80)) ? 0.2 : 0) + (position === 0 ? 0.05 : 0);
    case 'specs':
      return (SPEC_UNIT.test(text) ? 0.35 : 0) + (listItem ? 0.1 : 0);
    case 'guidance':
      return GUIDANCE.test(text) ? 0.25 : 0;
    case 'explanation':
      return EXPLANATION.test(text) ? 0.15 : 0;
    default:
      return 0;
  }
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * True when `text` writes `acronym` out: consecutive capitalised words whose initials spell it
 * ("Generative Adversarial Imitation Learning" for GAIL), small joining words allowed between.
 */
function spellsOut(text: string, acronym: string): boolean {
  const words = text.split(/[\s/-]+/).filter((word) => !/^(?:of|and|for|the|to|in|a)$/i.test(word));
  for (let start = 0; start + acronym.length <= words.length; start++) {
    let matched = true;
    for (let i = 0; i < acronym.length && matched; i++) {
      const word = words[start + i] ?? '';
      matched = /^[A-Z]/.test(word) && word[0] === acronym[i];
    }
    if (matched) return true;
  }
  return false;
}

const compact = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '');

/** How a sentence is tested for naming and defining the question's subject. */
interface SubjectTest {
  names(text: string, terms: ReadonlySet<string>): boolean;
  defines(text: string): boolean;
}

/**
 * Category nouns a question puts after the term it asks about ("a URDF file", "the Isaac Sim
 * platform", "the Nav2 framework"): the book names the term ("URDF"), rarely the category.
 */
const CATEGORY_NOUNS = new Set([
  'file',
  'files',
  'format',
  'framework',
  'library',
  'platform',
  'package',
  'software',
  'tool',
  'toolkit',
  'system',
  'thing',
  'concept',
  'term',
  'technology',
]);

/**
 * Nouns that are a category only after an acronym ("a VLA model", "the SLAM algorithm", "the ZMP
 * approach"): the book writes "VLA systems" or "the VLA pipeline". After plain words they are
 * part of the term ("a world model", "a dynamic model").
 */
const CATEGORY_AFTER_ACRONYM = new Set([
  'model',
  'models',
  'systems',
  'pipeline',
  'architecture',
  'algorithm',
  'algorithms',
  'approach',
  'method',
  'technique',
  'stack',
  'profile',
  'profiles',
  'settings',
]);
const ACRONYM_WORD = /(?:^|\s)[A-Z][A-Za-z]?[A-Z]{1,5}s?(?:\s|$)/;

/**
 * The subject test of a question: a sentence names the subject when it has every term of the head
 * word ("topic"; "URDF" of "URDF file", see {@link CATEGORY_NOUNS}), or the head or a two-word
 * phrase written together ("costmap" for "cost map"); it defines it when the head is in its label
 * ("Topics: …") or before its verb ("A ROS 2 topic is …").
 */
function subjectTest(
  subject: QuestionSubject,
  terms: (text: string) => string[],
  queryTerms: ReadonlySet<string>,
): SubjectTest | undefined {
  if (!subject.head) return undefined;
  let head = terms(subject.head);
  const modifier = terms(subject.phrase ?? '').filter((term) => !head.includes(term));
  const headWord = subject.head.toLowerCase();
  const category =
    modifier.length > 0 &&
    (CATEGORY_NOUNS.has(headWord) ||
      (CATEGORY_AFTER_ACRONYM.has(headWord) && ACRONYM_WORD.test(subject.phrase ?? '')));
  if (category) head = modifier;
  // Written together or apart: "cost map" is named by "costmap", "Nav 2" by "Nav2". A longer
  // phrase is a clause the question form caught ("the minimum the robot has"), not a name.
  const twoWords = (subject.phrase ?? '').split(/\s+/).length <= 2;
  const joined = [category ? '' : subject.head, twoWords ? (subject.phrase ?? '') : '']
    .map(compact)
    .filter((form) => form.length >= 4);
  if (head.length === 0 && joined.length === 0) return undefined;
  const acronym = /^[A-Z][A-Za-z]?[A-Z]{1,5}s?$/.test(subject.head)
    ? subject.head.replace(/s$/, '').toUpperCase()
    : undefined;
  const names = (text: string, own: ReadonlySet<string>) =>
    (head.length > 0 && head.every((term) => own.has(term))) ||
    joined.some((form) => compact(text).includes(form)) ||
    (acronym !== undefined && spellsOut(text, acronym));
  return {
    names,
    // The defined words are the subject and the question's own words, nothing else: "A node is"
    // and "ROS 2 nodes:" define a node; "A lifecycle node is" and "ros2 node list prints" do not.
    defines: (text) => {
      // "The Vision-Language-Action (VLA) pipeline …" is how a book says what an acronym stands for.
      if (
        acronym !== undefined &&
        (text.includes(`(${acronym})`) || text.includes(`${acronym} (`)) &&
        spellsOut(text, acronym)
      )
        return true;
      const label =
        LABELLED.exec(text)?.[1] ?? COPULA.exec(text)?.[1] ?? SUBJECT_VERB.exec(text)?.[1];
      if (label === undefined) return false;
      const own = terms(label);
      return (
        names(label, new Set(own)) &&
        own.every((term) => queryTerms.has(term) || head.includes(term))
      );
    },
  };
}

/**
 * True when sentences must name the subject to be quoted: the subject is what the question is
 * about (at least half of its topic words, as in "What exactly is a node in ROS 2?"), or the best
 * passage names it. In a long paraphrase whose subject is a word of its wording ("What's the trick
 * for making a simulator look different each run …", "What's the hourly rate to rent an Amazon
 * GPU machine?") and which the best passage does not name, the subject is only preferred: the
 * ranking found what the rest of the question asks about.
 */
function subjectRequired(
  subject: QuestionSubject,
  best: RetrievedChunk | undefined,
  test: SubjectTest,
  terms: (text: string) => string[],
  queryTerms: ReadonlySet<string>,
): boolean {
  const own = new Set(terms(subject.phrase ?? subject.head ?? ''));
  let shared = 0;
  for (const term of queryTerms) if (own.has(term)) shared++;
  if (queryTerms.size === 0 || shared / queryTerms.size >= 0.5) return true;
  if (best === undefined) return true;
  const text = `${best.section ?? ''}\n${best.text}`;
  return test.names(text, new Set(terms(text)));
}

/** Items of a list about the subject ("the specs of X") quoted from the first list about it. */
const LIST_ITEMS_ASKED = 5;
/**
 * Items quoted of the list a question asks for ({@link listAsked}), and of a list a quoted
 * sentence introduces: textbook lists run 3–8 ("defined by four key components:" lists five).
 */
const LIST_ITEMS_WHOLE = 8;

/**
 * The passage (among those quoted, best ranked first) whose list a question asks for, and the
 * position after which its items start: a passage whose own heading names the listed noun (-1,
 * its items from the start) or with a sentence introducing a list that names it ("… defined by
 * four key components:"); else the first passage a list item was quoted from.
 */
function askedList(
  noun: string,
  chosen: readonly SelectedSentence[],
  chunks: readonly RetrievedChunk[],
  terms: (text: string) => string[],
  sentencesOf: PassageSentences,
  asked: ReadonlySet<string>,
  listsChanges: (chunk: number) => boolean,
): { chunk: number; after: number; named: boolean } | undefined {
  const nounTerms = terms(noun);
  if (nounTerms.length === 0) return undefined;
  const quoted = [...new Set(chosen.map((c) => c.chunk))]
    .filter((chunkIndex) => !listsChanges(chunkIndex))
    .sort((a, b) => a - b);
  for (const chunkIndex of quoted) {
    const chunk = chunks[chunkIndex];
    if (!chunk) continue;
    const sentences = sentencesOf(chunk.text);
    if (!sentences.some((sentence) => sentence.listItem)) continue;
    const own = new Set(terms((chunk.section ?? '').split(' > ').at(-1) ?? ''));
    // Named as asked when the heading is the noun and the question's words, nothing else:
    // "Joints" for "What joint types …", not "Estimation Techniques" for "Which architecture
    // optimization techniques …".
    if (nounTerms.every((term) => own.has(term)))
      return {
        chunk: chunkIndex,
        after: -1,
        named: [...own].every((term) => asked.has(term) || nounTerms.includes(term)),
      };
    const intro = sentences.find(
      (sentence, i) =>
        !sentence.listItem &&
        sentence.text.endsWith(':') &&
        sentences[i + 1]?.listItem === true &&
        nounTerms.every((term) => sentence.terms.has(term)),
    );
    if (intro) return { chunk: chunkIndex, after: intro.position, named: false };
  }
  const first = chosen
    .filter((c) => c.listItem && !listsChanges(c.chunk))
    .reduce<SelectedSentence | undefined>((a, c) => (a && a.chunk <= c.chunk ? a : c), undefined);
  return first ? { chunk: first.chunk, after: -1, named: false } : undefined;
}

/**
 * The list that answers the question, when the passage chosen as the answer is one: of the
 * passages a list item was quoted from, the best ranked whose own heading is the question's words
 * ({@link headingIsQuestion}), else the best ranked passage; with the items standing with the
 * quoted one ({@link listRun}).
 */
function answeringList(
  chosen: readonly SelectedSentence[],
  chunks: readonly RetrievedChunk[],
  sentencesOf: PassageSentences,
  terms: (text: string) => string[],
  queryTerms: ReadonlySet<string>,
  about: (chunk: number) => boolean,
): { chunk: number; items: PassageSentence[] } | undefined {
  const quoted = chosen
    .filter((c) => c.listItem && c.code === undefined && about(c.chunk))
    .sort((a, b) => a.chunk - b.chunk || b.score - a.score);
  const named = quoted.find((c) => headingIsQuestion(chunks[c.chunk]?.section, terms, queryTerms));
  // The best-ranked passage otherwise, when its own heading names something asked: a list under
  // another heading ("Walking Patterns" for a question on balance sensors) is quoted for one item.
  const top =
    quoted[0]?.chunk === 0 && headingSharesQuestion(chunks[0]?.section, terms, queryTerms)
      ? quoted[0]
      : undefined;
  const pick = named ?? top;
  if (!pick) return undefined;
  // "How tall is the Unitree H1?" asks for the item labelled "Height", not the list it is in
  // (under a heading that is the question, "Behavior Trees", the label is the list's subject).
  const label = named ? undefined : LABELLED.exec(pick.text)?.[1];
  const labelTerms = label === undefined ? [] : terms(label);
  if (labelTerms.length > 0 && labelTerms.every((term) => queryTerms.has(term))) return undefined;
  const items = listRun(sentencesOf(chunks[pick.chunk]?.text ?? ''), pick.position);
  return items ? { chunk: pick.chunk, items } : undefined;
}

/**
 * `chosen` with one line of each passage but `lead`: its best, with the items it introduces when
 * it ends in a colon (quoted alone it would introduce nothing). Dropping the weaker passages
 * instead (two kept besides the list) cost the tune sets 12 of their 459 answers citing a gold
 * section; their single lines cost no citation and keep the list in front of fewer words.
 */
function oneLineEach<T extends SelectedSentence>(chosen: readonly T[], lead: number): T[] {
  const best = new Map<number, T>();
  for (const line of chosen) {
    const held = best.get(line.chunk);
    if (line.chunk !== lead && (!held || line.score > held.score)) best.set(line.chunk, line);
  }
  return chosen.filter((line) => {
    const top = best.get(line.chunk);
    if (top === undefined || top === line) return true;
    return top.text.endsWith(':') && line.listItem && line.position > top.position;
  });
}

/**
 * `chosen` with the list named as asked (in passage `lead`) the only list: each other passage
 * keeps its best line that says something alone (chosen for the question, not ending in a colon),
 * or nothing. "What are the humanoid design trade-offs?" quoted the list under "Design Trade-offs"
 * and then "Higher fidelity simulations require:" with its four costs, which read as four more
 * trade-offs of humanoid design.
 */
function noOtherList<T extends SelectedSentence>(chosen: readonly T[], lead: number): T[] {
  const best = new Map<number, T>();
  for (const line of chosen) {
    if (line.chunk === lead || line.score <= 0 || line.text.endsWith(':')) continue;
    const held = best.get(line.chunk);
    if (!held || line.score > held.score) best.set(line.chunk, line);
  }
  return chosen.filter((line) => line.chunk === lead || best.get(line.chunk) === line);
}

/** A short "Label: value" line, a page's field rather than a sentence ("Time: 20 minutes"). */
const FIELD_LINE = /^[^:]{1,30}:\s+\S+(?:\s+\S+){0,2}$/;
/** A sentence whose subject is the one before it: "It provides …", "This allows …", "They …". */
const OPENS_WITH_PRONOUN = /^(?:it|this|these|they|its|their)\b/i;

/** A candidate sentence with the terms it holds, as sentence choice weighs it. */
type WithTerms = SelectedSentence & { terms: ReadonlySet<string> };

/**
 * Adds to `chosen` the best line (from `pool`) for each side of a comparison no chosen line names,
 * from the passage that names the other side when one does: the two are often neighbouring items
 * of one list. A side is named by all its words, or by its own beside the other side's line
 * ("Continuous: … without limits" under "Joints"), not by a line naming both ("Static Analysis: …
 * without dynamics") nor by another chapter's "continuous states".
 */
function quoteBothSides<T extends WithTerms>(
  sides: readonly [string, string],
  chosen: T[],
  pool: readonly T[],
  terms: (text: string) => string[],
  headingTerms: (chunk: number) => ReadonlySet<string>,
): number[] {
  const [first, second] = sides.map((side) => terms(side)) as [string[], string[]];
  const whole = [first, second];
  const distinct = [
    first.filter((term) => !second.includes(term)),
    second.filter((term) => !first.includes(term)),
  ];
  const has = (c: WithTerms, words: readonly string[]) =>
    words.filter((term) => c.terms.has(term)).length;
  const stating: number[] = [];
  distinct.forEach((own, i) => {
    const other = distinct[1 - i] ?? [];
    const all = whole[i] ?? [];
    const partners = new Set(chosen.filter((c) => has(c, other) > 0).map((c) => c.chunk));
    // A line states a side when its label is the side or it opens with it ("Exploration: Trying
    // new actions …", "Forward kinematics computes …"); "Balancing: … between exploration and exploitation" names both and
    // states neither, "Initial Mapping: Building maps during exploration" mentions it in passing.
    const states = (c: WithTerms) => {
      const label = LABELLED.exec(c.text)?.[1];
      const words = terms(c.text);
      // "ROS 2 Documentation." names a side and says nothing of it.
      if (words.length < all.length + 3) return false;
      const lead = label !== undefined ? terms(label) : words.slice(0, all.length);
      return (
        lead.length === all.length &&
        all.every((term) => lead.includes(term)) &&
        has(c, other) === 0
      );
    };
    if (own.length === 0) return;
    // Best, a line stating the side under a heading that names it ("Forward Kinematics > Concept
    // and Purpose"), quoted already or not, over one under another heading ("Forward Kinematics:
    // Using DH parameters …" under "Denavit-Hartenberg (DH) Convention").
    const underOwnHeading = (c: WithTerms) => {
      const heading = headingTerms(c.chunk);
      return states(c) && all.every((term) => heading.has(term));
    };
    const quoted =
      chosen.find(underOwnHeading) ??
      pool.find(underOwnHeading) ??
      chosen.find((c) => states(c) && (has(c, all) === all.length || partners.has(c.chunk)));
    if (quoted) {
      if (!chosen.includes(quoted)) chosen.push(quoted);
      stating.push(quoted.chunk);
      return;
    }
    const best = pool
      .filter((c) => has(c, own) > 0 && !chosen.includes(c))
      .sort(
        (a, b) =>
          Number(states(b)) - Number(states(a)) ||
          Number(partners.has(b.chunk)) - Number(partners.has(a.chunk)) ||
          has(b, all) - has(a, all) ||
          Number(has(a, other) > 0) - Number(has(b, other) > 0) ||
          b.score - a.score,
      )[0];
    if (best) {
      chosen.push(best);
      if (states(best)) stating.push(best.chunk);
    }
  });
  return stating;
}

/** The answer style a question asks for: its own form first, then the agent's style. */
function effectiveStyle(subject: QuestionSubject, style: AnswerStyle): AnswerStyle {
  if (subject.form === 'definition') return 'definition';
  if (subject.form === 'explanation' && style !== 'specs') return 'explanation';
  return style;
}

/**
 * True when every term of a sentence is one of the question's: a compound name
 * ("robot_state_publisher") counts as its parts, which the analyser lists beside it; a figure
 * ("0.75-1.00") is always something more.
 */
function saysNothingMore(terms: ReadonlySet<string>, queryTerms: ReadonlySet<string>): boolean {
  for (const term of terms) {
    if (queryTerms.has(term)) continue;
    if (/\d/.test(term) || !/[^\p{L}\p{N}]/u.test(term)) return false;
  }
  return true;
}

/**
 * True when the sentence at `at` of a passage's `sentences` has something right below it to
 * introduce: a list item or a block quote (see `quoteBlockAfter`).
 */
function introducesBelow(sentences: readonly PassageSentence[], at: number): boolean {
  const next = sentences[at + 1];
  return next !== undefined && (next.listItem || next.text.startsWith('>'));
}

/** True when a passage's headings name models, none of them one the question asks about. */
function aboutOtherModels(chunk: RetrievedChunk, asked: ReadonlySet<string>): boolean {
  const named = modelNames(chunk.section ?? '');
  if (named.size === 0) return false;
  for (const model of named) if (asked.has(model)) return false;
  return true;
}

/**
 * Picks the sentences of the retrieved chunks that best answer `query`, with maximal marginal
 * relevance so near-duplicates are not quoted twice, and returns them in reading order (by chunk
 * rank, then position in the chunk).
 *
 * When the question names a subject ("What is a ROS 2 topic?", "How do topics work?"), only
 * sentences that name it are quoted, and for a definition the sentences that define it ("Topics:
 * named buses over which nodes exchange messages", "A topic is …") come first. If no retrieved
 * sentence names the subject, nothing is picked: the book does not answer this question.
 *
 * @example
 * const picked = selectSentences('What is a topic?', chunks, { terms, style: 'definition' });
 */
export function selectSentences(
  query: string,
  chunks: readonly RetrievedChunk[],
  options: SelectOptions,
): SelectedSentence[] {
  const max = options.max ?? 4;
  const lambda = options.lambda ?? 0.7;
  const cutoff = options.relativeCutoff ?? RELATIVE_CUTOFF;
  const sentenceCutoff = options.sentenceCutoff ?? 0.4;
  const subject = subjectAsWritten(options.subject ?? questionSubject(query), chunks, options);
  const style = effectiveStyle(subject, options.style);
  const queryTerms = new Set((options.queryTerms ?? options.terms)(query));
  const sentencesOf = options.sentences ?? passageSentences(options.terms);
  const test = subjectTest(subject, options.terms, queryTerms);
  // `whole`: a step of a procedure asked about: the steps answer together, so the per-passage
  // limit does not cut them. (Exempting every introduced list too cost answers their second and
  // third passages: 0.76 instead of 0.78 of the tuning questions cited a gold section.)
  const candidates: (SelectedSentence & {
    terms: ReadonlySet<string>;
    step: boolean;
    whole: boolean;
  })[] = [];
  const howTo = asksHowTo(query);
  const wantsCode = asksForCode(query);
  const topChunk = Math.max(0, ...chunks.map((chunk) => chunk.score));
  // The ranking orders passages by their whole score (synonyms and expansions included), the
  // cutoff reads their relevance to the question's own words: a passage ranked above one the
  // cutoff keeps is kept too, whatever its own-word score.
  const lastKept = chunks.findLastIndex((chunk) => chunk.score >= cutoff * topChunk);
  const kept = (chunkIndex: number) => chunkIndex <= lastKept;
  const required =
    test !== undefined &&
    (options.requireSubject === true ||
      subjectRequired(subject, chunks[0], test, options.terms, queryTerms));
  // Passages whose heading names the subject: their list is about it, item by item.
  const listsAboutSubject = new Set<number>();
  const asked = modelNames(query);
  // "Why are lifecycle nodes important?" is not answered by "Learning Objectives: Describe the
  // lifecycle node concept and its benefits": a course's objectives, outcomes and weekly plan name
  // a topic without saying anything of it. Quoted only when the question asks about the course, or
  // when nothing else was found.
  const courseMeta = asksAboutTheCourse(query)
    ? () => false
    : (chunk: RetrievedChunk) => listsTopicsOnly(headingPathOf(chunk));
  const onlyCourseMeta = chunks.every((chunk, i) => !kept(i) || courseMeta(chunk));
  chunks.forEach((chunk, chunkIndex) => {
    if (!kept(chunkIndex) || chunk.metadata.nextPartOnly === true) return;
    if (!onlyCourseMeta && courseMeta(chunk)) return;
    // "How heavy is the Unitree G1?": a section under "Unitree H1 Humanoid Robot" describes
    // another model, however well its "Weight" item matches.
    if (asked.size > 0 && aboutOtherModels(chunk, asked)) return;
    const headingTerms = new Set(options.terms(chunk.section ?? ''));
    const named = (text: string) =>
      test !== undefined && test.names(text, new Set(options.terms(text)));
    // The title of the passage's document ("Chapter 18: Weekly Breakdown" for "What is the weekly
    // breakdown of the course?") lets its sentences be quoted, without counting as naming it.
    const titleNames = chunk.title !== undefined && named(chunk.title);
    // A list under a heading that names the subject is about the subject, item by item, also under
    // its subheading ("Unitree Go2 Quadruped Robot > Specifications Overview"; higher headings
    // span whole chapters); prose sentences name their own subject, unless the passage's own
    // heading names it ("Capstone: Milestones, Deliverables and Grading" for "What are the
    // capstone milestones?").
    const headings = (chunk.section ?? '').split(' > ').slice(-2);
    const ownHeadingNames = named(headings[headings.length - 1] ?? '');
    const headingNames = ownHeadingNames || (headings.length > 1 && named(headings[0]!));
    if (headingNames) listsAboutSubject.add(chunkIndex);
    // So is a list introduced by a sentence that names it ("This book is structured as follows:").
    let intro: ReadonlySet<string> | undefined;
    const own = sentencesOf(chunk.text);
    for (const [at, sentence] of own.entries()) {
      const terms = sentence.terms;
      if (terms.size === 0) continue;
      const ownNames = test ? test.names(sentence.text, terms) : true;
      const names =
        ownNames || (sentence.listItem ? headingNames || intro !== undefined : ownHeadingNames);
      const introTerms = sentence.listItem ? intro : undefined;
      if (!sentence.listItem) intro = ownNames && sentence.text.endsWith(':') ? terms : undefined;
      if (!names && !titleNames && required) continue;
      // A list item made only of the question's words ("robot_state_publisher", one node of a
      // list, for "What is the robot state publisher for?") names the subject and says nothing.
      if (sentence.listItem && saysNothingMore(terms, queryTerms)) continue;
      // A list item that introduces items of its own ("Differences from ROS 1:") says nothing
      // quoted alone; its items are candidates themselves.
      if (sentence.listItem && sentence.text.endsWith(':')) continue;
      let covered = 0;
      for (const term of queryTerms) {
        if (terms.has(term)) covered += 1;
        else if (headingTerms.has(term) || introTerms?.has(term)) covered += WEIGHTS.heading;
      }
      // A page's field ("Time: 20 minutes", a paragraph of its own, not a list's item such as
      // "RAM: 32 GB") answers only a question about it.
      if (
        !sentence.listItem &&
        FIELD_LINE.test(sentence.text) &&
        ![...terms].some((term) => queryTerms.has(term))
      )
        continue;
      const coverage = queryTerms.size ? covered / queryTerms.size : 0;
      const length = sentence.text.length;
      // A list item is short by nature ("Weight: Around 40-45 kg"): only a fragment is too short.
      const tooShort = length < (sentence.listItem ? 15 : 25);
      const lengthPenalty = tooShort ? 0.25 : length > 400 ? 0.15 : 0;
      const defines = test !== undefined && test.defines(sentence.text);
      const explains = style === 'explanation';
      // Code answers how to do something, or a question about that code ("What does ros2 bag
      // record?"); quoted for any question it brought terminal output, YAML schemas and graphviz
      // blocks into answers about concepts (a re-run of the outside review's probes).
      // The tab the question names, when the sentence introduces a tab set ("… on Windows?").
      const asked = tabAsked(query, sentence);
      const introduced = introducedCode(asked);
      const code =
        introduced !== undefined && (wantsCode || namesCommand(query, introduced))
          ? introduced
          : undefined;
      // "ROS 2's logger levels are ordered by severity:" with its code left out introduces
      // nothing: it would be dropped once chosen, and its passage's place with it, so the passage's
      // next sentence ("The default level is Info.") is its candidate instead.
      if (sentence.code !== undefined && code === undefined && sentence.text.endsWith(':'))
        continue;
      // "Upon successful completion of this course, students will be able to:" with the outcomes in
      // the sections after it, not in its passage, introduces nothing either: chosen, it was
      // dropped and its passage lost its place, where the passage's next sentence ("Students will
      // demonstrate understanding of …") says what was asked.
      if (
        !sentence.listItem &&
        sentence.code === undefined &&
        sentence.text.endsWith(':') &&
        !introducesBelow(own, at)
      )
        continue;
      const score =
        WEIGHTS.coverage * coverage +
        WEIGHTS.rank * (topChunk > 0 ? chunk.score / topChunk : 0) +
        (test && names ? WEIGHTS.namesSubject : 0) +
        (defines ? (explains ? WEIGHTS.explainsSubject : WEIGHTS.definesSubject) : 0) +
        (explains && sentence.step ? WEIGHTS.step : 0) +
        (howTo && code !== undefined ? WEIGHTS.introducesCommand : 0) -
        (pointsElsewhere(sentence.text) ? WEIGHTS.pointsElsewhere : 0) +
        styleBonus(style, sentence.text, sentence.listItem, sentence.position) -
        lengthPenalty -
        0.01 * sentence.position;
      candidates.push({
        text: sentence.text,
        chunk: chunkIndex,
        position: sentence.position,
        score,
        listItem: sentence.listItem,
        step: sentence.step,
        whole: style === 'explanation' && sentence.step,
        terms,
        ...(code !== undefined ? { code } : {}),
        ...(code !== undefined && asked.codeLabel !== undefined
          ? { codeLabel: asked.codeLabel }
          : {}),
      });
    }
  });
  // Every candidate, before the cutoffs: a side of a comparison may score low on its own.
  const pool = [...candidates];
  const topSentence = Math.max(0, ...candidates.map((c) => c.score));
  for (let i = candidates.length - 1; i >= 0; i--) {
    if ((candidates[i]?.score ?? 0) < sentenceCutoff * topSentence) candidates.splice(i, 1);
  }

  const chosen: typeof candidates = [];
  // A line quoted for the line it goes with (a list's item, the line introducing it, a quotation),
  // not for a score of its own.
  const quotedWith = (
    chunk: number,
    line: PassageSentence,
    listItem: boolean,
    score = 0,
    step = line.step,
  ): (typeof candidates)[number] => ({
    text: line.text,
    chunk,
    position: line.position,
    score,
    listItem,
    step,
    whole: false,
    terms: line.terms,
  });
  const perChunk = options.maxPerChunk ?? 2;
  const fromChunk = (chunk: number) => chosen.filter((c) => c.chunk === chunk).length;
  const redundancyOf = (candidate: (typeof candidates)[number]) =>
    Math.max(0, ...chosen.map((c) => jaccard(c.terms, candidate.terms)));
  // First each kept passage's best sentence, one section at a time in rank order: the ranking
  // cannot tell passages this close apart (the right one is first only about three times in five),
  // so the answer quotes each section it found before a second sentence of any.
  const sections = new Set<string>();
  chunks.forEach((chunk, chunkIndex) => {
    if (chosen.length >= max || !kept(chunkIndex)) return;
    const section = `${chunk.source}#${chunk.section ?? ''}`;
    if (sections.has(section)) return;
    let best = -1;
    candidates.forEach((candidate, i) => {
      if (candidate.chunk !== chunkIndex || redundancyOf(candidate) >= 0.8) return;
      if (best < 0 || candidate.score > (candidates[best]?.score ?? 0)) best = i;
    });
    if (best < 0) return;
    const [picked] = candidates.splice(best, 1);
    if (picked) chosen.push(picked);
    sections.add(section);
  });
  while (chosen.length < max && candidates.length > 0) {
    let best = -1;
    let bestValue = -Infinity;
    candidates.forEach((candidate, i) => {
      // Steps of a procedure (see `whole`) are not held to the per-passage limit.
      if (!candidate.whole && fromChunk(candidate.chunk) >= perChunk) return;
      const redundancy = redundancyOf(candidate);
      const value = lambda * candidate.score - (1 - lambda) * redundancy;
      if (redundancy < 0.8 && value > bestValue) {
        bestValue = value;
        best = i;
      }
    });
    if (best < 0) break;
    const [picked] = candidates.splice(best, 1);
    if (picked) chosen.push(picked);
  }
  // The list items of a passage after `position` (or from its start), up to the prose after them
  // when `stopAtProse`.
  const listItemsAfter = (chunkIndex: number, after: number, stopAtProse: boolean) => {
    const items: PassageSentence[] = [];
    for (const sentence of sentencesOf(chunks[chunkIndex]?.text ?? '')) {
      if (sentence.position <= after) continue;
      if (!sentence.listItem) {
        if (stopAtProse) break;
        continue;
      }
      items.push(sentence);
    }
    return items;
  };
  // A bare label quoted with the first line under it ("Fast DDS <-> Connext — WString …", see
  // withFirstDetail): that line is not quoted again on its own, and a label already chosen alone
  // takes the line. True when `item` was already chosen.
  const quoteItem = (
    chunkIndex: number,
    items: readonly PassageSentence[],
    item: PassageSentence,
  ) => {
    const at = items.findIndex((original) => original.position === item.position);
    const original = items[at];
    // The line it stands for takes its place, score and all (a definition's best line leads).
    let score = 0;
    if (original !== undefined && original.text !== item.text) {
      const detail = items[at + 1];
      const repeated = chosen.findIndex(
        (c) => c.chunk === chunkIndex && c.position === detail?.position,
      );
      if (repeated >= 0) score = chosen.splice(repeated, 1)[0]?.score ?? 0;
    }
    const already = chosen.find((c) => c.chunk === chunkIndex && c.position === item.position);
    if (already) {
      already.text = item.text;
      already.score = Math.max(already.score, score);
      return;
    }
    chosen.push(quotedWith(chunkIndex, item, true, score));
  };
  // Quotes `count` of a chosen passage's list `items`, each once: a nested list's items are
  // details of the item above them, unless that item is what the question asks about (see
  // itemsAsked).
  // Returns the items asked (see itemsAsked), of which it quoted the first `count`.
  const quoteItems = (chunkIndex: number, items: readonly PassageSentence[], count: number) => {
    const asked = itemsAsked(items, queryTerms, options.terms);
    for (const sentence of asked.slice(0, count)) quoteItem(chunkIndex, items, sentence);
    return asked;
  };
  // The first `count` lines of a passage, items or prose, each once: a section that is one entry
  // of a list the question asks for.
  const quoteOpening = (chunkIndex: number, count: number) => {
    const chunk = chunks[chunkIndex];
    if (!chunk) return;
    const quoted = chosen.filter((c) => c.chunk === chunkIndex);
    for (const sentence of sentencesOf(chunk.text)) {
      if (quoted.length >= count) break;
      if (quoted.some((c) => c.position === sentence.position)) continue;
      const line = {
        text: sentence.text,
        chunk: chunkIndex,
        position: sentence.position,
        score: 0,
        listItem: sentence.listItem,
        step: sentence.step,
        whole: false,
        terms: sentence.terms,
      };
      chosen.push(line);
      quoted.push(line);
    }
  };
  // "ROS 2 introduces lifecycle nodes that provide a state machine … This is particularly
  // important for:" — the list the next sentence introduces about what a quoted one named is its
  // own: that sentence is quoted too (and its list, below), when the passage is the best ranked or
  // the sentence has a word of the question ("Why are lifecycle nodes important?"); in a passage
  // quoted for a side point, the list would be more of what was not asked.
  for (const quoted of [...chosen]) {
    if (quoted.listItem || quoted.text.endsWith(':')) continue;
    const sentences = sentencesOf(chunks[quoted.chunk]?.text ?? '');
    const index = sentences.findIndex((sentence) => sentence.position === quoted.position);
    const next = sentences[index + 1];
    if (
      !next ||
      next.listItem ||
      !next.text.endsWith(':') ||
      !CONTINUES.test(next.text) ||
      (quoted.chunk !== 0 && ![...next.terms].some((term) => queryTerms.has(term))) ||
      sentences[index + 2]?.listItem !== true ||
      chosen.some((c) => c.chunk === quoted.chunk && c.position === next.position)
    )
      continue;
    chosen.push(quotedWith(quoted.chunk, next, false));
  }
  // "When using or adapting this work, please use the following attribution:" introduces the
  // block quote under it, not a list: the quotation is quoted after it, each of its sentences once.
  // Before, the sentence introduced nothing and was dropped, and the licence's "How to Attribute"
  // went uncited for "How do I credit the book?".
  const quoteBlockAfter = (intro: (typeof chosen)[number]): boolean => {
    const text = chunks[intro.chunk]?.text ?? '';
    const sentences = sentencesOf(text);
    const at = sentences.findIndex((sentence) => sentence.position > intro.position);
    if (at < 0 || !sentences[at]!.text.startsWith('>')) return false;
    const block = blockQuoteAfter(text, sentences[at]!.text);
    let last = intro.position;
    // A long quotation is cut as a list is: its opening lines are the answer, the rest is cited.
    for (const sentence of sentences.slice(at, at + LIST_ITEMS_WHOLE)) {
      if (!block.includes(sentence.text.replace(/^>\s*/, ''))) break;
      if (!chosen.some((c) => c.chunk === intro.chunk && c.position === sentence.position))
        chosen.push(quotedWith(intro.chunk, sentence, false, 0, false));
      last = sentence.position;
    }
    return last > intro.position;
  };
  // A sentence that introduces a list ("Nav2 is the navigation framework for ROS 2, providing:")
  // is quoted with the first items of its list, not alone before other passages' lines.
  for (const intro of [...chosen]) {
    // One that introduces code brings it instead (see introducedCode).
    if (intro.listItem || !intro.text.endsWith(':') || intro.code !== undefined) continue;
    const before = chosen.length;
    quoteItems(intro.chunk, listItemsAfter(intro.chunk, intro.position, true), LIST_ITEMS_WHOLE);
    // "… students will be able to:" with its items in the sections after it: quoted alone it
    // introduces nothing.
    const introduces =
      chosen.length > before ||
      chosen.some((c) => c.chunk === intro.chunk && c.listItem && c.position > intro.position) ||
      quoteBlockAfter(intro);
    if (!introduces) chosen.splice(chosen.indexOf(intro), 1);
  }
  // "What are the specs of the Unitree H1?" asks for a list about its subject: the first list
  // quoted under a heading that names it is quoted whole (up to LIST_ITEMS_ASKED items), not one
  // item before the next passage's.
  let listQuoted = false;
  if (subject.form === 'other' && subject.phrase !== undefined && test !== undefined) {
    const list = chosen.find((c) => c.listItem && listsAboutSubject.has(c.chunk));
    if (list) quoteItems(list.chunk, listItemsAfter(list.chunk, -1, false), LIST_ITEMS_ASKED);
    listQuoted = list !== undefined;
  }
  // "What is the difference between static and dynamic balance?": an answer quoting one side
  // compares nothing (see quoteBothSides).
  const sides = comparedSides(query);
  const headingTermsOf = (chunkIndex: number) =>
    new Set(options.terms(chunks[chunkIndex]?.section ?? ''));
  const stating = sides ? quoteBothSides(sides, chosen, pool, options.terms, headingTermsOf) : [];
  // "What are the lifecycle states of a lifecycle node?" asks for a list: the one whose heading or
  // introducing sentence names what is listed ("Lifecycle States", "defined by four key
  // components:"), else the first quoted, is quoted whole rather than its first item or two.
  const listed = listAsked(query);
  // A release page's lists are of changes ("Add lifecycle node state transition instrumentation
  // (#804)" under "rcl_lifecycle"): the list a question asks for only when it asks about a
  // release or a change. "What are the lifecycle node states?" over the ROS 2 docs quoted nine
  // commit titles of a changelog as the states.
  // A release page the question names is what it asks about ("Which platforms does Humble
  // Hawksbill support?" wants that release page's list of platforms).
  const releasesAsked = asksAboutReleases(query);
  const listsChanges = (chunkIndex: number) => {
    const chunk = chunks[chunkIndex];
    return (
      !releasesAsked &&
      chunk !== undefined &&
      isReleaseNotes(chunk) &&
      !namesReleasePage(chunk, query)
    );
  };
  // The list named as asked leads (below), before a definition's best sentence.
  let listLeads = false;
  // The passage whose list was quoted whole (the list asked for, or the list answering the
  // question), which may run on into its next part, and how many of its items may be quoted.
  let listGoesOn: { chunk: number; most: number } | undefined;
  // "What are the phases of the capstone project?" where the book gives each phase a section of
  // its own ("Development Phases" > "Phase 1: Foundation" …): the sections are the list, each led
  // by its heading, in the book's order, and lines of other passages go (they were chosen for the
  // question's other words: "Projecting tasks" for "project"). Only when the best passage is one of
  // them: below a better passage ("Sensor Simulation" for "Which kinds of cameras …"), the sections
  // are a neighbour of the answer, not the answer.
  const grouped =
    listed !== undefined
      ? siblingSections(listed, chunks, options.terms, queryTerms, kept)
      : undefined;
  const siblings = grouped?.chunks.includes(0) ? grouped : undefined;
  const place = new Map<number, number>();
  if (siblings) {
    const first = siblings.chunks.reduce((a, b) => Math.min(a, b));
    siblings.chunks.forEach((chunkIndex, i) =>
      place.set(chunkIndex, first + i / (siblings.chunks.length + 1)),
    );
    for (let i = chosen.length - 1; i >= 0; i--) {
      if (!place.has(chosen[i]?.chunk ?? 0)) chosen.splice(i, 1);
    }
    const each = Math.max(1, Math.floor(LIST_ITEMS_WHOLE / siblings.chunks.length));
    for (const chunkIndex of siblings.chunks) quoteOpening(chunkIndex, each);
  } else if (listed !== undefined) {
    const list = askedList(
      listed,
      chosen,
      chunks,
      options.terms,
      sentencesOf,
      queryTerms,
      listsChanges,
    );
    if (list) {
      const items = listItemsAfter(list.chunk, list.after, list.after >= 0);
      listGoesOn = { chunk: list.chunk, most: LIST_ITEMS_WHOLE };
      // The list's items the question does not ask for are left out (see itemsAsked): one chosen
      // for its words ("Keep last: … queue depth option" for "What are the QoS reliability
      // options?") would stand alone among the items asked.
      const wanted = new Set(
        quoteItems(list.chunk, items, LIST_ITEMS_WHOLE).map((item) => item.position),
      );
      const unasked = new Set(
        items.filter((item) => !wanted.has(item.position)).map((item) => item.position),
      );
      const kept = chosen.filter(
        (line) => line.chunk !== list.chunk || !unasked.has(line.position),
      );
      chosen.splice(0, chosen.length, ...kept);
    }
    // The list named as asked leads: "What joint types does URDF support?" is answered by the
    // list under "Joints", not after what "What is URDF?" says URDF describes.
    if (list?.named) {
      place.set(list.chunk, -2);
      const kept = noOtherList(chosen, list.chunk);
      chosen.splice(0, chosen.length, ...kept);
    }
    listLeads = list?.named === true;
    listQuoted ||= list !== undefined;
  }
  // "How does domain randomization help sim-to-real transfer?" answered by a section that is a
  // short list ("Domain Randomization": randomizing parameters, training on diverse conditions,
  // improving generalization): the list is quoted whole (up to WHOLE_LIST_ITEMS), not its best
  // item before single items of four other sections (an outside review, 2026-11-30).
  if (!siblings && !listQuoted && !sides) {
    // A subject the answer must name is named by a list only under a heading naming it.
    const about = (chunkIndex: number) =>
      (!required || listsAboutSubject.has(chunkIndex)) && !listsChanges(chunkIndex);
    const lead = answeringList(chosen, chunks, sentencesOf, options.terms, queryTerms, about);
    if (lead) {
      const all = listItemsAfter(lead.chunk, -1, false);
      for (const item of lead.items.slice(0, WHOLE_LIST_ITEMS)) quoteItem(lead.chunk, all, item);
      // A list that runs to the end of its passage may go on in the next part, as the list asked
      // for does: "What are the built-in display types in RViz?" is a table cut in three.
      if (lead.items.some((item) => item.position === all.at(-1)?.position))
        listGoesOn = { chunk: lead.chunk, most: WHOLE_LIST_ITEMS };
      // The weaker passages give their best line each, not a second: the list is the answer.
      const kept = oneLineEach(chosen, lead.chunk);
      chosen.splice(0, chosen.length, ...kept);
    }
  }
  // The passages stating each side of a comparison lead, in the question's order: "Forward
  // kinematics computes …" and "Inverse kinematics solves …" before a Jacobian's "partial
  // derivatives of forward kinematics".
  [...new Set(stating)].forEach((chunk, i) => place.set(chunk, -1 + i / (stating.length + 1)));
  // "It provides …" quoted alone says nothing of what "it" is: the sentence before it in its
  // passage, which names it, comes with it.
  for (const sentence of [...chosen]) {
    if (sentence.listItem || sentence.position === 0 || !OPENS_WITH_PRONOUN.test(sentence.text))
      continue;
    if (chosen.some((c) => c.chunk === sentence.chunk && c.position === sentence.position - 1))
      continue;
    const chunk = chunks[sentence.chunk];
    const before = chunk
      ? sentencesOf(chunk.text).find((s) => s.position === sentence.position - 1)
      : undefined;
    // A page's field line ("Time: 20 minutes", "Tutorial level: Beginner") names nothing "This"
    // could stand for.
    if (!before || before.listItem || FIELD_LINE.test(before.text)) continue;
    chosen.push(quotedWith(sentence.chunk, before, false));
  }
  // "What are the QoS policies?": the list asked for runs to the end of its passage and on into
  // the section's next part ("Lease Duration"): its items there are quoted after it.
  const next = listGoesOn === undefined ? undefined : options.continuations?.get(listGoesOn.chunk);
  if (listGoesOn !== undefined && next !== undefined) {
    const first = listGoesOn.chunk;
    const most = listGoesOn.most;
    const own = sentencesOf(chunks[first]?.text ?? '');
    const quoted = chosen.filter((c) => c.chunk === first && c.listItem).length;
    const lead: PassageSentence[] = [];
    for (const sentence of sentencesOf(chunks[next]?.text ?? '')) {
      if (!sentence.listItem) break;
      lead.push(sentence);
    }
    if (own.at(-1)?.listItem === true && lead.length > 0 && quoted < most) {
      // Items nested deeper than the list's own ("Automatic" under "Liveliness", cut from it)
      // are details of the last item before the cut.
      const depth = Math.min(...own.filter((s) => s.listItem).map((s) => s.indent ?? 0));
      const outer = lead.filter((item) => (item.indent ?? 0) <= depth);
      const items = withFirstDetail(outer, lead).slice(0, most - quoted);
      for (const item of items) {
        // The next part was retrieved too, and this item chosen from it already.
        if (chosen.some((c) => c.chunk === next && c.position === item.position)) continue;
        chosen.push(quotedWith(next, item, true));
      }
      if (items.length > 0) place.set(next, (place.get(first) ?? first) + 0.5);
    }
  }
  const at = (chunk: number) => place.get(chunk) ?? chunk;
  const ordered = chosen
    .sort((a, b) => at(a.chunk) - at(b.chunk) || a.position - b.position)
    .map(({ text, chunk, position, score, listItem, code, codeLabel }) => ({
      text,
      chunk,
      position,
      score,
      listItem,
      ...(code !== undefined ? { code } : {}),
      ...(codeLabel !== undefined ? { codeLabel } : {}),
    }));
  // A definition reads best when the defining sentence comes first, whatever its position; "What
  // are the QoS policies?" reads as a definition, but its answer is the list headed "QoS policies"
  // (a sentence of the section's second part on policies' defaults came first).
  if (style === 'definition' && ordered.length > 1 && !listLeads) {
    const lead = ordered.reduce((best, s) => (s.score > best.score ? s : best));
    const rest = ordered.filter((s) => s !== lead);
    return [lead, ...rest];
  }
  return ordered;
}

/**
 * The Markdown block quote of `text` that starts with the line holding `first` (a sentence that
 * opens with "> "), its lines joined without their quote marks; empty when there is none.
 */
export function blockQuoteAfter(text: string, first: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trimStart().startsWith('>') && line.includes(first));
  if (start < 0) return '';
  const block: string[] = [];
  for (const line of lines.slice(start)) {
    if (!line.trimStart().startsWith('>')) break;
    block.push(line.trimStart().replace(/^>\s?/, ''));
  }
  return block.join(' ');
}
