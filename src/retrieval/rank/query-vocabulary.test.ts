import { describe, expect, it } from 'vitest';
import { prepareDocument } from '../ingest/ingest.js';
import {
  createQueryVocabulary,
  oneEditApart,
  REPAIRS_LOOKED_UP_PER_QUERY,
  spellingVariant,
  type QueryVocabularySources,
} from './query-vocabulary.js';
import { DEFAULT_TECHNIQUES, createRanker } from './ranker.js';
import { analyze } from './tokenizer.js';

// A small course book on beekeeping (new examples, not the textbook's wording): hyphenated
// compounds, a closed compound, numbered weeks and American spellings.
const chunks = prepareDocument(
  'hives.md',
  [
    '# Beekeeping Course',
    '## Week 3: Swarm Control',
    'Split strong colonies before they swarm, and keep a queen excluder ready. The whole colony moves with the 2 queens apart.',
    '## Week 4: Honey Harvest',
    'Take frames that are mostly capped; leave enough stores for winter.',
    '## Mid-season Inspection',
    'Check brood pattern, stores and signs of varroa in a mid-season inspection.',
    '## Smoker Workstation',
    '## Smoker Setup',
    'Light the fuel first, then the setup is done in a minute.',
    'A workstation beside the hive keeps the smoker, hive tool and fuel together.',
    '## Hive Optimization',
    'Optimization of hive layout improves the colony behavior through the continuous flow of nectar.',
    '## Real-time Monitoring',
    'Scales and sensors give real-time readings of hive weight and temperature, kept in the cloud.',
  ].join('\n\n'),
).chunks;

const indexed = new Set(chunks.flatMap((c) => analyze(`${c.headingPath.join(' ')} ${c.text}`)));
// WordNet as the repair sees it: English words and their synonyms (a stub with new examples).
const ENGLISH: Record<string, string[]> = {
  optimisation: ['optimization'],
  behaviour: ['behavior', 'demeanor'],
  produce: ['product', 'create'],
  realtime: [],
  midseason: [],
};
const sources: QueryVocabularySources = {
  indexed: (term) => indexed.has(term),
  synonyms: (word) => ENGLISH[word],
};
const repair = (query: string) => createQueryVocabulary(chunks, sources).repair(query);

describe('createQueryVocabulary', () => {
  it('splits a closed compound the book writes with a hyphen', () => {
    expect(repair('when is the midseason inspection?')).toEqual({
      text: 'when is the mid season inspection?',
      repairs: [['midseason', 'mid season']],
    });
    expect(repair('realtime hive weight').text).toBe('real time hive weight');
  });

  it('closes up two words the book writes as one, split by a space or a hyphen', () => {
    expect(repair('where does the smoker work station go').text).toBe(
      'where does the smoker workstation go',
    );
    expect(repair('a smoker work-station?').repairs).toEqual([['work-station', 'workstation']]);
  });

  it("closes up a phrasal verb the book writes as one word ('set up' → setup)", () => {
    // Both words are the book's, so nothing was read: "How do I set up the smoker?" missed the
    // "Smoker Setup" heading.
    expect(repair('how do I set up the smoker').text).toBe('how do I setup the smoker');
    // Two words of the book that are no phrasal verb stay apart.
    expect(repair('split strong colonies').repairs).toEqual([]);
  });

  it('corrects typos one edit from a book word when English does not know them', () => {
    expect(repair('the continous flow of nectar').text).toBe('the continuous flow of nectar');
    expect(repair('hive optimizaton').repairs).toEqual([['optimizaton', 'optimization']]);
  });

  it('reads a spelling variant English knows as the book spells it', () => {
    expect(repair('hive optimisation and colony behaviour').repairs).toEqual([
      ['optimisation', 'optimization'],
      ['behaviour', 'behavior'],
    ]);
  });

  it('never maps one English word onto another, nor changes a word the book uses', () => {
    // "produce" is one edit from "product" and WordNet relates them, but it is no spelling variant.
    expect(repair('how much honey do hives produce').repairs).toEqual([]);
    expect(repair('swarm control in week 3').repairs).toEqual([]);
  });

  it('looks up only the first words the book does not use: made-up text costs a bounded number of lookups', () => {
    const letter = (n: number) => String.fromCharCode(97 + (n % 26));
    const noise = Array.from(
      { length: REPAIRS_LOOKED_UP_PER_QUERY },
      (_, i) => `zqx${letter(i)}${letter(Math.floor(i / 26))}v`,
    ).join(' ');
    expect(repair(`the continous flow ${noise}`).repairs).toEqual([['continous', 'continuous']]);
    expect(repair(`${noise} the continous flow`).repairs).toEqual([]);
    // A compound the book writes with a hyphen takes no lookup: read past the budget too.
    expect(repair(`${noise} the midseason inspection`).repairs).toEqual([
      ['midseason', 'mid season'],
    ]);
  });

  it('reads no function word, short unknown word or written name as a typo', () => {
    // "whose" is one edit from the book's "whole", "iCloud" from its "cloud".
    expect(repair('Whose hive is it?').repairs).toEqual([]);
    expect(repair('hive weights backed up to iCloud').repairs).toEqual([]);
    expect(repair('hive weights backed up to icloudd').repairs).toEqual([]);
  });

  it('reads "dose" after a question word as "does", and only there', () => {
    expect(repair('how dose a queen excluder work').repairs).toEqual([['dose', 'does']]);
    expect(repair('Why dose the colony swarm?').text).toBe('Why does the colony swarm?');
    expect(repair('a dose of smoke for the hive').repairs).toEqual([]);
  });

  it('keeps "dose" after "what" or "which", where a noun is what English puts', () => {
    // "What dose of syrup…" was read "What does of syrup…", and the query lost its subject.
    expect(repair('What dose of syrup should a colony get?').repairs).toEqual([]);
    expect(repair('which dose of smoke calms the hive').repairs).toEqual([]);
  });

  it('reads "dose" as "does" only before a word that starts a subject: "when dose is doubled" is the noun', () => {
    // "When dose is doubled…" was read "When does is doubled…", after "when" as after "how".
    expect(repair('When dose is doubled, does the colony calm down?').repairs).toEqual([]);
    expect(repair('how dose rises affect the brood').repairs).toEqual([]);
    // Before a pronoun, an article, a possessive or a name, "does" is what was meant.
    expect(repair('how dose it swarm').text).toBe('how does it swarm');
    expect(repair('where dose my queen excluder go').repairs).toEqual([['dose', 'does']]);
    expect(repair('how dose Langstroth spacing work').repairs).toEqual([['dose', 'does']]);
    // A name the book writes with a capital counts typed in lower case too.
    const named = prepareDocument(
      'hive-kit.md',
      '# Kits\n\nThe Langstroth hive and the Warre hive differ. Use Langstroth frames in a Warre box.',
    ).chunks;
    const kit = createQueryVocabulary(named, sources);
    expect(kit.repair('how dose langstroth spacing work').repairs).toEqual([['dose', 'does']]);
    expect(kit.repair('how dose frames fit').repairs).toEqual([]);
  });

  it('writes a number word in digits only beside a word the book numbers', () => {
    // The book writes "the 2 queens", but "the" numbers nothing.
    expect(repair('keep the third frame').repairs).toEqual([]);
    expect(repair('what happens in week four?').text).toBe('what happens in week 4?');
    expect(repair('the fourth week').text).toBe('the 4 week');
    expect(repair('four frames of honey').repairs).toEqual([]);
  });

  it('leaves a query of book words as it is, without reading the book', () => {
    const vocabulary = createQueryVocabulary([], sources);
    expect(vocabulary.repair('Swarm control, week 3!')).toEqual({
      text: 'Swarm control, week 3!',
      repairs: [],
    });
  });
});

describe('the vocabulary technique in the ranker', () => {
  const top = (query: string, vocabulary: boolean) =>
    createRanker(chunks, { techniques: { ...DEFAULT_TECHNIQUES, vocabulary } })
      .rank(query)[0]
      ?.chunk.headingPath.at(-1);

  it('finds the section a compound, a typo or a number word names in the book spelling', () => {
    expect(top('when is the midseason?', true)).toBe('Mid-season Inspection');
    expect(top('when is the midseason?', false)).toBeUndefined();
    expect(top('what is done in week four', true)).toBe('Week 4: Honey Harvest');
  });

  it('reads the query as rank does', () => {
    const ranker = createRanker(chunks);
    expect(ranker.readQuery?.('midseason checks?').text).toBe('mid season checks?');
    const off = createRanker(chunks, { techniques: { ...DEFAULT_TECHNIQUES, vocabulary: false } });
    expect(off.readQuery?.('midseason checks?')).toEqual({
      text: 'midseason checks?',
      repairs: [],
    });
  });
  it('leaves an opener saying how to answer as typed ("TL;DR:" is no initialism of the book)', () => {
    const drones = prepareDocument(
      'drones.md',
      '# Drones\n\n## Navigation\n\n- **Dead Reckoning**: estimating position from speed and heading.\n',
    ).chunks;
    const ranker = createRanker(drones);
    // The book's initialism is still read elsewhere in the question.
    expect(ranker.readQuery?.('how accurate is DR?').repairs).not.toEqual([]);
    expect(ranker.readQuery?.('TL;DR: how accurate is it?')).toEqual({
      text: 'TL;DR: how accurate is it?',
      repairs: [],
    });
  });
});

describe('oneEditApart and spellingVariant', () => {
  it('counts one insertion, deletion, substitution or neighbour swap', () => {
    expect(oneEditApart('continous', 'continuous')).toBe(true);
    expect(oneEditApart('optimisation', 'optimization')).toBe(true);
    expect(oneEditApart('hvie', 'hive')).toBe(true);
    // The lexicon's deletion index pairs these (both lose a letter to "ater"): two edits.
    expect(oneEditApart('later', 'after')).toBe(false);
    expect(oneEditApart('hive', 'hive')).toBe(false);
  });

  it('knows the British and American spellings of one word', () => {
    expect(spellingVariant('optimisation', 'optimization')).toBe(true);
    expect(spellingVariant('practise', 'practice')).toBe(true);
    expect(spellingVariant('behaviour', 'behavior')).toBe(true);
    expect(spellingVariant('modelling', 'modeling')).toBe(true);
    expect(spellingVariant('centre', 'center')).toBe(true);
    expect(spellingVariant('produce', 'product')).toBe(false);
    expect(spellingVariant('hives', 'hive')).toBe(false);
  });
});

describe("createQueryVocabulary: initialisms of the book's terms", () => {
  // A small robotics book (new wording): a bold term, and a heading whose term the text uses,
  // neither ever shortened by the book itself.
  const robotics = prepareDocument(
    'legs.md',
    [
      '# Legged Robots',
      '## Degrees of Freedom',
      'A leg with three degrees of freedom can place its foot anywhere in reach.',
      'Each added joint adds degrees of freedom and cost.',
      '## Gaits',
      '- **Central Pattern Generators**: rhythmic signals that drive a walking gait.',
      'A gait uses every degrees of freedom of the hips.',
      '## New Pricing Models',
      'Vendors now rent robots by the month.',
      '## Skills',
      '- **Hierarchical Decomposition**: a task split into steps.',
      '- **Temporal Synchronization**: sensors stamped on one clock.',
      '- **Robust Control**: a controller that tolerates error.',
      '- **Functional Understanding**: what an object is for; a finger grips it.',
    ].join('\n\n'),
  ).chunks;
  const words = new Set(robotics.flatMap((c) => analyze(`${c.headingPath.join(' ')} ${c.text}`)));
  const read = (query: string) =>
    createQueryVocabulary(robotics, {
      indexed: (term) => words.has(term),
      synonyms: (word) => ({ idk: undefined, dna: ['deoxyribonucleic acid'] })[word],
    }).repair(query);

  it('reads a word the book and English never use as the term it abbreviates', () => {
    expect(read('What does DOF mean?')).toEqual({
      text: 'What does degrees of freedom mean?',
      repairs: [['dof', 'degrees of freedom']],
    });
    expect(read('how do cpgs make a robot walk').text).toBe(
      'how do central pattern generators make a robot walk',
    );
  });
  it('leaves a lower-case word one edit from a function word, chat shorthand and English alone', () => {
    // "dof" typed in lower case may be a slip for "of"; in capitals it is an initialism.
    expect(read('what is dof').repairs).toEqual([]);
    expect(read('idk what a gait is').repairs).toEqual([]);
    expect(read('What is DNA?').repairs).toEqual([]);
  });
  it('does not read part of a name joined by a hyphen as initials', () => {
    expect(read('How do I wire a DOF-SR12 servo board?').repairs).toEqual([]);
    expect(read('Is the DOF count on a.dof file?').repairs).toEqual([
      ['dof', 'degrees of freedom'],
    ]);
  });
  it('does not read a heading the text never uses as a term', () => {
    expect(read('is npm free').repairs).toEqual([]);
  });
  it('leaves an everyday short form alone whatever book term has its letters', () => {
    expect(read('Is an HD camera enough?').repairs).toEqual([]);
    expect(read('Can I write the nodes in TS?').repairs).toEqual([]);
    expect(read('Will an RC car do as a base?').repairs).toEqual([]);
  });
  it('reads no part of a word with letters beyond A to Z', () => {
    // "Fußball" is one word: its "fu" is no initialism, and "Schrödinger"'s "dinger" no typo.
    expect(read('Was ist Fußball?').repairs).toEqual([]);
    expect(read('How does a Schrödinger gripper work?').repairs).toEqual([]);
  });
  it('looks up as many words as an initialism as it looks up as a typo', () => {
    const many = read('DOF '.repeat(REPAIRS_LOOKED_UP_PER_QUERY + 10));
    expect(many.repairs).toHaveLength(REPAIRS_LOOKED_UP_PER_QUERY);
  });
});
