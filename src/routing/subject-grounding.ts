import type { Agent } from '../agents/index.js';
import { DEFAULT_MIN_GROUNDING } from '../config/index.js';
import type { BookKnowledge } from '../schema/index.js';
import type { EnglishDictionary } from './english-dictionary.js';
import { FORM_WORDS } from './intent-cues.js';
import { isWorkQuestionStem, namesTheWork, workNameAt } from '../retrieval/index.js';
import { analyzeText, isContentWord, textWords, type QueryText } from './query-text.js';

/**
 * Tagged senses in WordNet's sense index (the sum of its SemCor counts): the size of the everyday
 * English sample a word's {@link EnglishDictionary} frequency was counted in.
 */
export const ENGLISH_SAMPLE_SIZE = 248_795;

/**
 * How much more often than in everyday English a word must occur in the book to be a book term:
 * "system" (in 30 % of the textbook's chunks) is; "life" (twice in the book, common in English) is not.
 */
export const KEYNESS_FACTOR = 10;

/** How much more a noun the book never uses weighs than one it does: it names another subject. */
export const UNCOVERED_NOUN_WEIGHT = 2;

/**
 * Weight of a name no dictionary knows (English, the book, the specialists) when it is the whole
 * subject: that of a rare noun. Its share of the subject is then all of it.
 */
export const UNKNOWN_NAME_WEIGHT = 1;

/**
 * Weight of a specialist keyword made of letters and digits ("G1", "Go2", "g5", "ROS 2") found in
 * a question: that of a rare noun. Words are split where letters meet digits, so without this such
 * a keyword (a product or platform name) would not weigh in the subject at all.
 */
export const COMPOUND_KEYWORD_WEIGHT = 1;

/**
 * True when `word` is written, as it is, among the first `end` of `words`: "node" in "What's a node
 * in Node.js?" (not "market" for "marketing", another word of one stem).
 */
function writtenBefore(words: readonly string[], word: string, end: number): boolean {
  for (let i = 0; i < end; i += 1) if (words[i] === word) return true;
  return false;
}

// Where the asker is, not what they ask about: "at home", "under my desk", "in our garage".
const OWN_PLACES: ReadonlySet<string> = new Set(
  'home house flat apartment room bedroom dorm garage basement desk office workshop shed studio place'.split(
    ' ',
  ),
);
const PLACE_PREPOSITIONS: ReadonlySet<string> = new Set(
  'at in on under beside near around inside by'.split(' '),
);
const OWNERS: ReadonlySet<string> = new Set(['my', 'our']);

/**
 * True when the word at `at` names the asker's own place ("Which box should I buy to run all this
 * at home?", "What machine should sit under my desk?", "… in our tiny flat"): where they will use
 * what they ask about, not its subject, which the book never names. A place after "my" or "our"
 * (one word may come between) led by a preposition of place, or "home" after "at", ending its
 * phrase.
 */
function namesOwnPlace(words: readonly string[], at: number): boolean {
  const word = words[at]!;
  // It ends the phrase: in "on my home router" the place names the router's kind.
  if (!OWN_PLACES.has(word) || isContentWord(words[at + 1] ?? '')) return false;
  if (word === 'home' && words[at - 1] === 'at') return true;
  for (let owner = at - 1; owner >= Math.max(1, at - 2); owner -= 1)
    if (OWNERS.has(words[owner]!)) return PLACE_PREPOSITIONS.has(words[owner - 1]!);
  return false;
}

/** True when `text` has an ASCII digit: `/\d/.test(text)`, without a call into the engine. */
function hasDigit(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 0x30 && code <= 0x39) return true;
  }
  return false;
}

// Letters and digits written together ("g5.2xlarge", "go2") or a word then a number ("ros 2").
// A match starts where a run of letters does (one found inside a run would be found from its
// start first): said outright, the letters of a word are not each tried as a start, with the
// run read to its end and back again from every one of them.
const COMPOUND = /(?<![a-z])[a-z]+\d[a-z0-9]*(?:[.-][a-z0-9]+)*|(?<![a-z])[a-z]+ \d+\b/g;

/**
 * "G1", "g5.2xlarge", "ROS 2" → "g1", "g5", "ros2": the compact forms a keyword may have. The head
 * ("g5") only before a separator: "h1b" (a visa) is not the H1 robot.
 */
function compactForms(token: string): string[] {
  const compact = token.replace(/[^a-z0-9]/g, '');
  const head = /^[a-z]+\d+(?=[.-])/.exec(token)?.[0];
  return head && head !== compact ? [compact, head] : [compact];
}

/**
 * Names written as names (capitalised inside a sentence: "Photoshop", "Dropbox", "Elden Ring")
 * that neither English, the book nor a specialist knows: a product, place or person the book
 * never mentions, not a typo (typos are rarely capitalised). They weigh in the subject as an
 * uncovered noun does.
 */
export const PROPER_NAME_WEIGHT = UNCOVERED_NOUN_WEIGHT * UNKNOWN_NAME_WEIGHT;

// A word with a capital letter that does not start a sentence ("How much RAM does Photoshop need?").
const WRITTEN_AS_NAME =
  /(?<=[^\s.?!:;]\s+)[A-Za-z]*[A-Z][A-Za-z0-9]*|(?<=^|\s)[a-z]+[A-Z][A-Za-z0-9]*/g;

const NO_NAMES: ReadonlySet<string> = new Set();

/** The lowercased words `raw` writes as names (see {@link WRITTEN_AS_NAME}). */
function writtenAsNames(raw: string): ReadonlySet<string> {
  // Every match has a capital after the text's first character: most questions have none, and
  // are not searched with the look-behind at every character.
  if (!hasCapitalAfterFirst(raw)) return NO_NAMES;
  const found = new Set<string>();
  for (const [token] of raw.matchAll(WRITTEN_AS_NAME)) found.add(token.toLowerCase());
  return found;
}

/** True when `raw` has an ASCII capital letter after its first character. */
function hasCapitalAfterFirst(raw: string): boolean {
  for (let i = 1; i < raw.length; i += 1) {
    const code = raw.charCodeAt(i);
    if (code >= 0x41 && code <= 0x5a) return true;
  }
  return false;
}

/** True when a word of `words`, from `from` on, has a digit: `/\d/` of their text joined. */
function hasDigitFrom(words: readonly string[], from: number): boolean {
  for (let i = from; i < words.length; i += 1) {
    const word = words[i]!;
    for (let c = 0; c < word.length; c += 1) {
      const code = word.charCodeAt(c);
      if (code >= 0x30 && code <= 0x39) return true;
    }
  }
  return false;
}

/** Weight of a word used only as a verb or adverb, against 1 for a noun. */
export const VERB_WEIGHT = 0.25;

/**
 * A specialist named only by a keyword is a secondary agent when the keyword's term lives mostly
 * in that specialist's part of the book ("capstone") rather than everywhere ("ROS 2").
 */
export const MIN_KEYWORD_DOMAIN_SHARE = 0.5;

/** A keyword word of a specialist counts as a book term; a word of its examples, this much. */
export const EXAMPLE_WORD_COVERAGE = 0.5;

/** What the book (and the specialists' own vocabulary) says about one query's subject. */
export interface Grounding {
  /** The subject words judged (content words that are not the question's form), as written. */
  subject: string[];
  /** Subject words the book covers, strongest first. */
  covered: string[];
  /**
   * Covered subject words English does not know ("costmap", "vslam"): the book's own technical
   * terms, which tie a question to the book as a specialist keyword does.
   */
  bookTerms: string[];
  /**
   * Words of the subject the book never uses, most specific first: names no dictionary knows
   * ("bitcoin"), then English words.
   */
  uncovered: string[];
  /**
   * 0..1: the specificity-weighted share of the subject the book covers; 1 when there is no
   * subject to judge (only the question's form), 0 when the subject is only names that neither
   * English, the book nor a specialist knows ("How much does bitcoin cost?").
   */
  score: number;
  /**
   * 0..1: like `score`, but counting only the covered words that meet in one passage of the book
   * (and words everywhere in it): the book uses "laptop" and "video" but never together.
   */
  together: number;
  /**
   * The grounding of what the question asks something for ("the best laptop for a law student"):
   * the words after its first "for", when they hold a subject; or the setting a question is
   * placed in ("What is a policy in economics?", "In economics, what is a policy?").
   */
  purpose?: Grounding;
  /**
   * True when `purpose` is a setting put before the ask and closed by a comma ("In economics,
   * …"): part of the ask, which context before an ask is not.
   */
  settingFirst?: boolean;
  /** False when the question has no subject word at all: nothing to judge by. */
  judged: boolean;
  /**
   * True when a subject word is a specialist's keyword word or one of the book's own technical
   * terms (`bookTerms`): something ties the subject to the book beyond everyday words.
   */
  named: boolean;
  /**
   * True when the whole subject is names neither English, the book nor a specialist knows
   * ("bitcoin"): the book certainly does not cover it.
   */
  namesOnly: boolean;
  /** Share of the subject's book occurrences per chunk domain (sums to 1, or empty). */
  domainShares: Record<string, number>;
}

/** One subject word as judged: its weight in the subject and how strongly the book covers it. */
interface JudgedWord {
  word: string;
  stem: string;
  weight: number;
  strength: number;
  /** The chunks using the stem, when it is in at most a quarter of them (see `together`). */
  passages: readonly number[] | undefined;
}

/**
 * What grounding needs to know of one query word, whatever the question: worked out once per word
 * (bounded cache), since the same words recur from question to question.
 */
export interface WordFacts {
  stem: string;
  /** Not a subject word: a function word, a form word ("price") or one with a digit. */
  skip: boolean;
  /** Neither English, the book nor a specialist knows it: a name, or a typo. */
  name: boolean;
  /** A covered word English does not know ("costmap"). */
  bookTerm: boolean;
  /** A book term or a specialist's keyword word. */
  named: boolean;
  weight: number;
  strength: number;
  passages: readonly number[] | undefined;
  /** Its idf-weighted share of each domain's chunks, added to the subject's domain mass. */
  mass: Float64Array | undefined;
}

/** A caller's record of a word that holds its {@link WordFacts} (a router's word record). */
export interface KnownFacts {
  readonly facts: WordFacts | undefined;
}

/** Past this many subject stems in one text, groundText remembers the ones it met in a Set. */
const SEEN_SCAN = 32;

/** Words whose facts are kept; beyond it facts are worked out each time (odd input cannot grow it). */
const WORD_FACTS_LIMIT = 20_000;

// "for example" and "for instance" introduce an example, not a purpose (what follows is the
// example's subject); "for me", "for us" name who asks ("Expand LiDAR for me, letter by letter"),
// and a later "for" may still name the purpose.
const EXAMPLE = new Set(['example', 'instance']);
const PERSON = new Set(['me', 'us', 'you', 'him', 'her', 'them']);

// Verbs after which "to" starts what something is wanted for: "What GPU do I need to play X?",
// "Which card should I buy to edit video?" ("need to" ≈ "need … for").
// "enough to follow along" says what it must be enough for.
const WANTING = new Set(['need', 'needs', 'want', 'wants', 'buy', 'get', 'rent', 'use', 'enough']);

// Verbs whose object follows "for" ("reach for", "look for", "wait for", "search for", "ask for",
// "account for", "check for", "stand for"): the words after it are what the verb acts on.
const OBJECT_FOR = new Set(
  (
    'reach reaches reaching reached look looks looking looked search searches searching searched ' +
    'wait waits waiting waited ask asks asking asked account accounts accounting accounted check ' +
    'checks checking checked scan scans scanning scanned stand stands aim aims aiming aimed grab ' +
    'grabs grabbing'
  ).split(' '),
);

// "at a …", "at my …": a place or setting; "at the end", "at the same time", "at a time" are not.
const SETTING_ARTICLE = new Set(['a', 'an', 'the', 'my', 'our', 'your', 'his', 'her', 'their']);
const NOT_A_SETTING = new Set(
  'end start beginning same time moment least most rate speed level cost price point stage step'.split(
    ' ',
  ),
);

/**
 * Where the purpose of a question starts: after its first "for" that is followed by words ("What
 * does X stand for?" has none) and names no person, or after "to" following a verb of wanting
 * ("need to play…"), whichever comes first; -1 when there is none.
 */
function purposeStart(words: readonly string[]): number {
  for (let at = 0; at < words.length - 1; at += 1) {
    const word = words[at];
    if (word === 'for' && EXAMPLE.has(words[at + 1] ?? '')) return -1;
    // "reach for a cup", "look for obstacles": the verb's object, not a purpose.
    if (word === 'for' && at > 0 && OBJECT_FOR.has(words[at - 1] ?? '')) continue;
    if (word === 'for' && !forPerson(words, at + 1)) return at + 1;
    if (word === 'to' && at > 0 && WANTING.has(words[at - 1] ?? '')) return at + 1;
    // "What does 'gait analysis' mean at a running shoe store?": the setting a term is asked in
    // is judged as a purpose is ("at the end of the course", "at the same time" are not settings).
    if (
      word === 'at' &&
      SETTING_ARTICLE.has(words[at + 1] ?? '') &&
      !NOT_A_SETTING.has(words[at + 2] ?? '')
    )
      return at + 2;
  }
  return -1;
}

// "in simple terms", "in a nutshell", "in practice": how a definition is wanted, not where the
// term is used.
const MANNER = new Set(
  (
    'simple plain short brief layman laymans lay other general practice detail details one few ' +
    'nutshell sentence sentences line lines word words english everyday summary essence theory ' +
    'principle'
  ).split(' '),
);
const DEFINITION_SETTING = new Set(['in', 'on', 'within']);
const BOOK_PLACES = new Set(
  'book textbook course chapter chapters section sections lab labs module modules text reading readings'.split(
    ' ',
  ),
);

/**
 * Where the setting a definition places its term in starts ("What is an edge in graph theory?",
 * "What does ROS mean on a bank statement?"): after the first "in", "on" or "within" that follows
 * the term and is not a manner ("in simple terms", "in a nutshell"); -1 when there is none. The
 * setting is judged as a purpose is: "a node in ROS 2" is the book's, "inflation in economics" is
 * not.
 */
function definitionSettingStart(words: readonly string[]): number {
  for (let at = 3; at < words.length - 1; at += 1) {
    if (!DEFINITION_SETTING.has(words[at]!)) continue;
    const next = SETTING_ARTICLE.has(words[at + 1]!) ? at + 2 : at + 1;
    const head = words[next];
    // "… in chapter 1", "in the course": the book itself.
    if (head === undefined || MANNER.has(head) || BOOK_PLACES.has(head)) return -1;
    return next;
  }
  return -1;
}

// A setting put before the question and closed by a comma: "In economics, what is a policy?".
// Words after a leading "in" that name an occasion, a source, an opinion or a manner, not a field.
const NOT_A_FIELD: ReadonlySet<string> = new Set(
  (
    'this that these those todays today lecture lectures class classes exam exams quiz test tests ' +
    'notes slides homework assignment assignments seminar tutorial tutorials practice theory ' +
    'general short summary particular addition fact reality opinion experience total person ' +
    'public private advance detail details order case terms words brief'
  ).split(' '),
);
const LEADING_SETTING = /^\s*(?:in|within)\s+([^,?!.;]+),/i;

/**
 * The words of a setting a question is placed in before it is asked ("In economics, what is a
 * policy?", "In marketing, what does 'pipeline' mean?"), as {@link definitionSettingStart} reads
 * one after the term: from the word after "in" to the comma, as a text of its own; undefined when
 * there is none, or when it is no field (see below), a manner or the book itself ("In simple
 * terms, …", "In chapter 3, …").
 */
function leadingSetting(text: QueryText): QueryText | undefined {
  const match = LEADING_SETTING.exec(text.raw);
  // A field is written as a common noun in lower case: "In India," and "In Python," name a place
  // or a tool, "In my country," "In the exam," and "In today's lecture," an occasion or a source,
  // none of them the field a term is asked in (an outside review found these sent to the
  // fallback).
  if (!match || !/^[a-z]/.test(match[1]!)) return undefined;
  // Its words are the question's own after "in", up to the comma, and some must follow it.
  const to = 1 + textWords(match[1]!).words.length;
  const head = text.words[1];
  if (
    to === 1 ||
    to >= text.words.length ||
    head === undefined ||
    SETTING_ARTICLE.has(head) ||
    NOT_A_FIELD.has(head) ||
    MANNER.has(head) ||
    BOOK_PLACES.has(head)
  )
    return undefined;
  return {
    raw: text.words.slice(1, to).join(' '),
    words: text.words.slice(1, to),
    stems: text.stems.slice(1, to),
  };
}

/** True when the word at `at` names who something is for ("for me"), not what ("for her taxes"). */
function forPerson(words: readonly string[], at: number): boolean {
  const word = words[at] ?? '';
  // "her" is also a possessive: "for her tax returns" names a purpose.
  return PERSON.has(word) && !(word === 'her' && isContentWord(words[at + 1] ?? ''));
}

/** Book knowledge compiled for lookups, plus the specialists' vocabulary. */
export interface CompiledKnowledge {
  readonly knowledge: BookKnowledge;
  /** Total chunks. */
  readonly size: number;
  /** How strongly a stem is a term of the book (0..1), from its keyness against English. */
  termStrength(stem: string, word: string): number;
  /**
   * Judges a query's subject. `known` holds {@link CompiledKnowledge.wordFacts} of its words, index
   * for index, when the caller has them at hand (a router's per-word records, read in place rather
   * than copied into a list for each question): not looked up again.
   */
  ground(text: QueryText, known?: readonly KnownFacts[], definition?: boolean): Grounding;
  /** What grounding needs to know of `word` (whose stem is `stem`), whatever the question. */
  wordFacts(word: string, stem: string): WordFacts;
  /** Share of the chunks using `stem` that are in `domain`; undefined when the book never uses it. */
  domainShare(stem: string, domain: string): number | undefined;
}

const ln1p = Math.log1p;

/**
 * Compiles book knowledge for routing: a subject word's weight is its specificity in English (rare
 * words say more about what a question is about: "derailleur" more than "today"), and it counts as
 * covered by the share of its keyness in the book (book rate against English rate), or as a
 * specialist's own word.
 *
 * @example
 * const compiled = compileKnowledge(knowledge, registry.all(), englishDictionary(), 'book');
 * compiled.ground(analyzeText("What does 'serendipity' mean?")).score; // 0
 */
export function compileKnowledge(
  knowledge: BookKnowledge,
  agents: readonly Pick<Agent, 'name' | 'keywords' | 'examples'>[],
  english: EnglishDictionary,
  defaultAgent: string,
): CompiledKnowledge {
  const size = Math.max(
    1,
    knowledge.chunks.reduce((a, b) => a + b, 0),
  );
  // Specialists' own words: what they declare they are for counts as on topic even if the book
  // spells it differently.
  const agentCoverage = new Map<string, number>();
  const note = (stem: string, value: number) => {
    agentCoverage.set(stem, Math.max(agentCoverage.get(stem) ?? 0, value));
  };
  // Specialist keywords made of letters and digits, in compact form ("g1", "ros2").
  const compoundKeywords = new Set<string>();
  for (const agent of agents) {
    if (agent.name === defaultAgent) continue;
    for (const keyword of agent.keywords) {
      const compact = keyword.toLowerCase().replace(/[^a-z0-9]/g, '');
      if (/[a-z]/.test(compact) && /\d/.test(compact)) compoundKeywords.add(compact);
      const text = analyzeText(keyword);
      text.words.forEach((word, i) => {
        if (isContentWord(word) && !FORM_WORDS.has(word)) note(text.stems[i] ?? word, 1);
      });
    }
    for (const example of agent.examples) {
      const text = analyzeText(example);
      text.words.forEach((word, i) => {
        if (isContentWord(word) && !FORM_WORDS.has(word))
          note(text.stems[i] ?? word, EXAMPLE_WORD_COVERAGE);
      });
    }
  }

  // Own properties only: a query word such as "constructor" must not find Object's prototype.
  const termRow = (stem: string): number[] | undefined =>
    Object.hasOwn(knowledge.terms, stem) ? knowledge.terms[stem] : undefined;
  const passages = knowledge.passages;
  const passagesOf = (stem: string): number[] | undefined =>
    passages && Object.hasOwn(passages, stem) ? passages[stem] : undefined;

  const bookFrequency = (stem: string): number => {
    const row = termRow(stem);
    if (!row) return 0;
    let total = 0;
    for (const count of row) total += count;
    return total;
  };

  const termStrength = (stem: string, word: string): number => {
    const inBook = bookFrequency(stem);
    const own = agentCoverage.get(stem) ?? 0;
    if (inBook === 0) return own;
    const bookRate = inBook / size;
    const englishRate = (english.lookup(word).frequency + 1) / ENGLISH_SAMPLE_SIZE;
    return Math.max(own, bookRate / (bookRate + KEYNESS_FACTOR * englishRate));
  };

  // The covered weight of the subject's words that meet in one passage of the book. A word with no
  // passage list meets every other: it is everywhere in the book, or a specialist's own word.
  // Sums per chunk live in one reused typed array (zeroed after each use through `touched`).
  let maxChunk = -1;
  // Whether every list names each passage once, in order (as book knowledge is built): then a
  // subject with one word that has a list meets itself in each of its passages, its value alone.
  let distinctLists = true;
  if (passages)
    for (const stem in passages) {
      let previous = -1;
      for (const chunk of passages[stem] ?? []) {
        if (chunk > maxChunk) maxChunk = chunk;
        if (chunk <= previous) distinctLists = false;
        previous = chunk;
      }
    }
  const inPassage = new Float64Array(maxChunk + 1);
  // The chunks given a sum, each once (a sum is positive once given), in a fixed array and a
  // count: emptying a list that grew past a few entries gives its storage back, and the next
  // call would grow it again.
  const touched = new Int32Array(maxChunk + 1);
  let touchedCount = 0;
  const together = (judged: ReadonlyArray<JudgedWord>, count: number): number => {
    let everywhere = 0;
    // The words with a list, and the last of them: with one, its passages are not read.
    let lists = 0;
    let last: JudgedWord | undefined;
    for (let j = 0; j < count; j += 1) {
      const entry = judged[j]!;
      const value = entry.weight * entry.strength;
      if (value === 0) continue;
      if (entry.passages) {
        lists += 1;
        last = entry;
      } else everywhere += value;
    }
    if (lists === 0) return everywhere;
    if (lists === 1 && distinctLists) {
      // Each of its passages sums to its value once, as the loop below would find.
      const value = last!.weight * last!.strength;
      return everywhere + (last!.passages!.length > 0 && value > 0 ? value : 0);
    }
    let best = 0;
    for (let j = 0; j < count; j += 1) {
      const entry = judged[j]!;
      const value = entry.weight * entry.strength;
      const list = entry.passages;
      if (value === 0 || !list) continue;
      for (const chunk of list) {
        const previous = inPassage[chunk] as number;
        if (previous === 0) touched[touchedCount++] = chunk;
        const sum = previous + value;
        inPassage[chunk] = sum;
        if (sum > best) best = sum;
      }
    }
    for (let t = 0; t < touchedCount; t += 1) inPassage[touched[t]!] = 0;
    touchedCount = 0;
    return everywhere + best;
  };

  // Everything about a word that does not depend on the question (see WordFacts).
  const facts = new Map<string, WordFacts>();
  const factsOf = (word: string, stem: string): WordFacts => {
    const known = facts.get(word);
    if (known && known.stem === stem) return known;
    const entry = english.lookup(word);
    const strength = termStrength(stem, word);
    const unknown = entry.lemma === undefined;
    // Rare words say more about the subject than everyday ones, and nouns more than verbs.
    const partWeight = unknown ? 1 : VERB_WEIGHT + (1 - VERB_WEIGHT) * entry.nounShare;
    // A plain noun the book never uses ("rocket", "bathroom") names a subject elsewhere.
    const absentNoun = strength < 0.5 && entry.nounShare >= 0.9 ? UNCOVERED_NOUN_WEIGHT : 1;
    const row = termRow(stem);
    let mass: Float64Array | undefined;
    if (row) {
      // Rare terms say more about where the subject lives than ubiquitous ones ("robot").
      const total = row.reduce((a, b) => a + b, 0);
      const idf = Math.log(1 + size / Math.max(total, 1));
      mass = Float64Array.from(
        row,
        (count, d) => (idf * count) / Math.max(knowledge.chunks[d] ?? 1, 1),
      );
    }
    const result: WordFacts = {
      stem,
      skip: !isContentWord(word) || FORM_WORDS.has(word) || /\d/.test(word),
      name: unknown && strength === 0,
      bookTerm: unknown && strength >= 0.5,
      named: (unknown && strength >= 0.5) || agentCoverage.get(stem) === 1,
      weight: (absentNoun * partWeight) / (1 + ln1p(entry.frequency)),
      strength,
      passages: passages ? passagesOf(stem) : undefined,
      mass,
    };
    if (facts.size < WORD_FACTS_LIMIT) facts.set(word, result);
    return result;
  };

  const ground = (
    text: QueryText,
    facts?: readonly KnownFacts[],
    definition = false,
  ): Grounding => {
    // "Who is this textbook aimed at?": a question about the work itself, whose words about it
    // (the work's name, "aimed", "written", "covers") are no subject the book must cover; the book
    // rarely calls itself a "textbook", and never says who it is "aimed" at.
    const whole = groundText(text, facts, false, 0, namesTheWork(text.words));
    const purposeAt = purposeStart(text.words);
    const at = purposeAt < 0 && definition ? definitionSettingStart(text.words) : purposeAt;
    if (at < 0) {
      // Before the ask, a setting places any question, not only a definition: the whole text,
      // which is what is grounded when context comes first, opens with it.
      const setting = purposeAt < 0 ? leadingSetting(text) : undefined;
      if (!setting) return whole;
      const placed = groundText(setting, undefined, true);
      if (placed.judged) {
        whole.purpose = placed;
        whole.settingFirst = true;
      }
      return whole;
    }
    // Its own words only (from `at` on, read in place rather than copied). A definition's setting
    // is judged without the term's own words: "a node in Node.js" names the term again, and its
    // "node" says nothing about the field ("js") the term is asked in.
    const purpose = groundText(text, facts, true, at, false, at !== purposeAt);
    // After "need to", one bare verb is what the subject must do, not what it is for: "What does
    // the demo need to show?" (a purpose names a thing: "need to play Elden Ring").
    const named = at !== purposeAt || text.words[at - 1] === 'for' || purpose.subject.length >= 2;
    if (!purpose.judged || !named) return whole;
    // `whole` is this call's own: the purpose is added to it (last, as a spread would put it)
    // rather than copied with a spread, which looks the object's shape up each time.
    whole.purpose = purpose;
    return whole;
  };

  // groundText's working state, reused from call to call (routing is synchronous, and a call is
  // done with it before it returns: its result holds only words and numbers): the judged words
  // are entries of one pool, filled in place, and the domain mass one typed array, instead of an
  // object per word, an array of them and a typed array per call, on every clause of every
  // question.
  const judged: JudgedWord[] = [];
  let judgedCount = 0;
  const judge = (
    word: string,
    stem: string,
    weight: number,
    strength: number,
    passages: readonly number[] | undefined,
  ) => {
    let entry = judged[judgedCount];
    if (entry === undefined) {
      entry = { word, stem, weight, strength, passages };
      judged.push(entry);
    } else {
      entry.word = word;
      entry.stem = stem;
      entry.weight = weight;
      entry.strength = strength;
      entry.passages = passages;
    }
    judgedCount += 1;
  };
  const mass = new Float64Array(knowledge.domains.length);
  // The judged words `keep` picks, highest `key` first, ties in their order: rankedBy's order, by
  // the entries' positions (the first `orderCount` of one scratch list) rather than a list of the
  // entries. Counts rather than emptying lists: setting an array's length is a call into the
  // engine.
  const order: number[] = [];
  let orderCount = 0;
  const rankedWords = (
    key: (entry: JudgedWord) => number,
    keep: (entry: JudgedWord) => boolean,
    into: string[],
  ): string[] => {
    orderCount = 0;
    for (let j = 0; j < judgedCount; j += 1) {
      const entry = judged[j]!;
      if (!keep(entry)) continue;
      let at = orderCount++;
      while (at > 0 && key(entry) > key(judged[order[at - 1]!]!)) {
        order[at] = order[at - 1]!;
        at -= 1;
      }
      order[at] = j;
    }
    for (let o = 0; o < orderCount; o += 1) into.push(judged[order[o]!]!.word);
    return into;
  };
  // The stems a groundText call has met: a scan of a short list (a question has a few words),
  // and a Set once the text has more than SEEN_SCAN of them, so a long text is not scanned word
  // by word for each of its words.
  const seenList: string[] = [];
  let seenCount = 0;
  let seenSet: Set<string> | undefined;
  /** True when `stem` was met before in this call; else it is met now. */
  const metBefore = (stem: string): boolean => {
    if (seenSet) {
      if (seenSet.has(stem)) return true;
      seenSet.add(stem);
      return false;
    }
    for (let i = 0; i < seenCount; i += 1) if (seenList[i] === stem) return true;
    seenList[seenCount++] = stem;
    if (seenCount > SEEN_SCAN) seenSet = new Set(seenList.slice(0, seenCount));
    return false;
  };
  const byStrength = (entry: JudgedWord) => entry.strength;
  const byWeight = (entry: JudgedWord) => entry.weight;
  const isCovered = (entry: JudgedWord) => entry.strength >= 0.5;
  const isUncovered = (entry: JudgedWord) => entry.strength < 0.5;

  // The grounding of `text`'s words from `from` on (a purpose's, when `purposeOnly`): their text
  // is the words joined, not the whole question's raw text, which would lend the purpose a
  // keyword of the subject ("h1 tags … for seo" is not asked for an H1).
  const groundText = (
    text: QueryText,
    facts: readonly KnownFacts[] | undefined,
    purposeOnly = false,
    from = 0,
    aboutTheWork = false,
    withoutWordsBefore = false,
  ): Grounding => {
    judgedCount = 0;
    // A loop, not `fill` (a call into the engine for a handful of domains).
    for (let d = 0; d < mass.length; d += 1) mass[d] = 0;
    seenCount = 0;
    seenSet = undefined;
    const bookTerms: string[] = [];
    const names: string[] = [];
    let named = false;
    const { words, stems } = text;
    // "Go2 versus G1", "What is an A100?": keywords and the book's model names, which the word
    // split cannot see, weigh as book terms.
    // The joined words are built only when they hold a digit (the compounds need one).
    if (from === 0 ? hasDigit(text.raw) : hasDigitFrom(words, from)) {
      const lower = (from === 0 ? text.raw : words.slice(from).join(' ')).toLowerCase();
      // `exec` on the one global expression: `matchAll` copies it and makes an iterator.
      COMPOUND.lastIndex = 0;
      for (let match = COMPOUND.exec(lower); match; match = COMPOUND.exec(lower)) {
        const token = match[0];
        const forms = compactForms(token);
        const found = forms.find((form) => compoundKeywords.has(form));
        if (found) {
          if (metBefore(found)) continue;
          named = true;
          bookTerms.push(token);
          judge(token, found, COMPOUND_KEYWORD_WEIGHT, 1, undefined);
          continue;
        }
        // A name the book writes as one ("a100" in "the A100's memory"), weighed where it lives.
        const written = forms[0]!;
        if (!termRow(written) || metBefore(written)) continue;
        const known = factsOf(written, written);
        if (known.strength >= 0.5) {
          named = true;
          bookTerms.push(token);
        }
        judge(token, written, COMPOUND_KEYWORD_WEIGHT, known.strength, known.passages);
        const add = known.mass;
        if (add)
          for (let d = 0; d < add.length; d += 1)
            mass[d] = (mass[d] as number) + (add[d] as number);
      }
    }
    for (let i = from; i < words.length; i += 1) {
      const word = words[i] as string;
      const stem = stems[i] ?? word;
      // Function and form words are skipped through their facts too (`skip`).
      const known = facts?.[i]?.facts ?? factsOf(word, stem);
      if (
        known.skip ||
        (aboutTheWork && (isWorkQuestionStem(stem) || workNameAt(words, i))) ||
        (withoutWordsBefore && writtenBefore(words, word, from)) ||
        namesOwnPlace(words, i) ||
        metBefore(stem)
      )
        continue;
      if (known.name) {
        names.push(word);
        continue;
      }
      if (known.bookTerm) bookTerms.push(word);
      if (known.named) named = true;
      judge(word, stem, known.weight, known.strength, known.passages);
      const add = known.mass;
      if (add)
        for (let d = 0; d < add.length; d += 1) mass[d] = (mass[d] as number) + (add[d] as number);
    }
    // A word neither English, the book nor a specialist knows is a name or a typo the speller
    // could not place: beside words that can be judged it says nothing (it may be a typo), but
    // when it is all the subject there is ("How much does bitcoin cost?"), the question is about
    // something the book never names.
    const namesOnly = judgedCount === 0 && names.length > 0;
    // Beside judged words, a name is weighed only when it is written as one (not a typo), or
    // when it is in what the question asks something for ("need to play valorant"): there a
    // word the speller could not place beside a verb is the thing wanted, a lowercase name.
    let properNames: string[] = [];
    if (!namesOnly && names.length > 0) {
      const written = purposeOnly ? undefined : writtenAsNames(text.raw);
      properNames = written ? names.filter((word) => written.has(word)) : names;
      for (const word of properNames) judge(word, word, PROPER_NAME_WEIGHT, 0, undefined);
    }
    if (namesOnly) for (const word of names) judge(word, word, UNKNOWN_NAME_WEIGHT, 0, undefined);
    // The same sums in the same order as reducing over the judged words.
    let weight = 0;
    for (let j = 0; j < judgedCount; j += 1) weight += judged[j]!.weight;
    let covered = 0;
    for (let j = 0; j < judgedCount; j += 1) covered += judged[j]!.weight * judged[j]!.strength;
    const score = weight > 0 ? covered / weight : 1;
    // Loops rather than a typed array's reduce and forEach (each a call per element): the same
    // sums in the same order.
    let totalMass = 0;
    for (let d = 0; d < mass.length; d += 1) totalMass += mass[d]!;
    const domainShares: Record<string, number> = {};
    if (totalMass > 0)
      for (let d = 0; d < knowledge.domains.length; d += 1)
        domainShares[knowledge.domains[d]!] = (mass[d] ?? 0) / totalMass;
    const subject: string[] = [];
    for (let j = 0; j < judgedCount; j += 1) subject.push(judged[j]!.word);
    // Names the book does not know come first: they are the most specific words there are.
    // `names` itself when none is a proper name: it is this call's own, and not read after.
    const uncovered = namesOnly
      ? []
      : properNames.length === 0
        ? names
        : names.filter((word) => !properNames.includes(word));
    return {
      subject,
      covered: rankedWords(byStrength, isCovered, []),
      bookTerms,
      uncovered: rankedWords(byWeight, isUncovered, uncovered),
      score,
      together: weight > 0 ? together(judged, judgedCount) / weight : 1,
      judged: weight > 0,
      named,
      namesOnly,
      domainShares,
    };
  };

  const domainShare = (stem: string, domain: string): number | undefined => {
    const total = bookFrequency(stem);
    if (total === 0) return undefined;
    const d = knowledge.domains.indexOf(domain);
    return d < 0 ? 0 : (termRow(stem)?.[d] ?? 0) / total;
  };

  return { knowledge, size, termStrength, ground, wordFacts: factsOf, domainShare };
}

// Two numbers joined by an operator: "17 times 23", "45 + 12", "what is 3 squared" (not "-" or
// "/", which join ranges and versions: "weeks 1-3"). "x" and "×" also write sizes ("640 x 480 at
// 90 fps", "a 3 x 3 rotation matrix", "a 10 × 10 m map"): with them the product must end the ask.
// A share of a bare amount ("15% of 480", "a 20% discount on a jacket of 89.99,") is a sum too; the
// amount must end the ask or a clause, so a share of a quantity ("80% of 15 W", "90% of 8 GB",
// "95% of the time") is no arithmetic.
const ARITHMETIC =
  /\b\d+(?:\.\d+)?(?:\s*[+*\u00f7^=]\s*| (?:plus|minus|times|multiplied by|divided by) )\d|\b\d+(?:\.\d+)?(?:\s*\u00d7\s*| x )\d+(?:\.\d+)?\s*(?:[?!.=]|$)|\b\d+(?:\.\d+)? (?:squared|cubed)\b|\b(?:square root|sqrt) of \d|\b\d+(?:\.\d+)?\s*(?:%|percent|per cent)(?: [a-z]+)? (?:of|on|off)(?: (?:a|an|the) [a-z]+(?: [a-z]+)? (?:of|at|for))? [$\u20ac\u00a3]?\d[\d,]*(?:\.\d+)?\s*(?:[?!.,;]|$)/;

/**
 * True when the query is arithmetic ("What is 17 times 23?"): its subject is numbers, which no
 * book section answers.
 *
 * @example
 * isArithmetic(analyzeText('how much is 45 plus 12')); // true
 */
export function isArithmetic(text: QueryText): boolean {
  return isArithmeticText(text.raw);
}

/** {@link isArithmetic} of a question's raw text. */
export function isArithmeticText(raw: string): boolean {
  // Every form holds a digit: most questions have none, and are not lowercased and searched.
  return hasDigit(raw) && ARITHMETIC.test(raw.toLowerCase());
}

export { DEFAULT_MIN_GROUNDING };
