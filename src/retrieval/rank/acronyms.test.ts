import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../test/seeded-random.js';
import {
  findAcronymDefinitions,
  initialismsOf,
  mineAcronyms,
  mineInitialisms,
} from './acronyms.js';

/** How definitions were found before: the pattern tried at every position of the text. */
const byScanning = (text: string) =>
  [
    ...text.matchAll(/((?:[A-Za-z][\w'-]*\s+){1,8}?)\(([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*s?)\)/g),
  ].map((match) => [match[1], match[2]]);

const PIECES = [
  'Zero Moment Point (ZMP)',
  'Visual Simultaneous Localization and Mapping',
  'Zero',
  'Moment',
  'Point',
  'of',
  'and',
  'the',
  'SLAM',
  'ros_2',
  "robot's",
  'well-known',
  'x1',
  '9lives',
  '_under',
  'é',
  'Été',
  ' ',
  '  ',
  '\n',
  '\t',
  '\u00a0',
  '\u2028',
  '.',
  ',',
  '(',
  ')',
  '(ZMP)',
  '(VSLAM)',
  '(ZMPs)',
  '(Zm)',
  '(ZMP',
  'ZMP)',
  '((ZMP)',
  '(ZMP))',
  '-',
  "'",
  '(RoS2)',
  '(A1B)',
];

describe('mineAcronyms', () => {
  it('keys an acronym by its letters: a plural "s" dropped, a capital S kept', () => {
    const mined = mineAcronyms([
      'Hives sit on a Bee Feeding System (BFS) and a Quality of Syrup (QoS) check.',
      'Mark queens with Queen Marking Pens (QMPs).',
    ]);
    expect([...mined.keys()]).toEqual(['bfs', 'qos', 'qmp']);
    expect(mined.get('qos')).toEqual(new Set(['quality of syrup']));
  });
});

describe('findAcronymDefinitions', () => {
  it('finds what scanning the definition pattern over the whole text found, in order', () => {
    const next = seededRandom(11);
    let found = 0;
    for (let i = 0; i < 5000; i++) {
      const text = Array.from(
        { length: 1 + Math.floor(next() * 40) },
        () => PIECES[Math.floor(next() * PIECES.length)],
      ).join(next() < 0.5 ? ' ' : '');
      const definitions = findAcronymDefinitions(text);
      found += definitions.length;
      expect(definitions, text).toEqual(byScanning(text));
    }
    expect(found).toBeGreaterThan(1000);
  });

  const corpora = resolve(import.meta.dirname, '../../../../shared/corpus');
  it.skipIf(!existsSync(corpora))('finds the same on the shared corpora', () => {
    let found = 0;
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.(md|mdx|rst)$/.test(entry.name)) {
          const text = readFileSync(path, 'utf8');
          const definitions = findAcronymDefinitions(text);
          found += definitions.length;
          expect(definitions, path).toEqual(byScanning(text));
        }
      }
    };
    walk(corpora);
    expect(found).toBeGreaterThan(50);
  });
});

describe('initialismsOf', () => {
  it('reads the initials of a term without articles, and without any small word', () => {
    expect(initialismsOf('Degrees of Freedom')).toEqual(['dof']);
    expect(initialismsOf('Total Cost of Ownership')).toEqual(['tcoo', 'tco']);
    expect(initialismsOf('Hardware-in-the-Loop')).toEqual(['hil']);
    expect(initialismsOf('Human-Robot Interaction')).toEqual(['hri']);
    expect(initialismsOf('Human–Robot Interaction')).toEqual(['hri']);
    expect(initialismsOf('Sim‑to‑Real')).toEqual(['str']);
  });
  it('reads two letters only from a two-word term, and nothing from names with digits', () => {
    expect(initialismsOf('Forward Kinematics')).toEqual(['fk']);
    expect(initialismsOf('Week 3 Plan')).toEqual([]);
    expect(initialismsOf('Kinematics')).toEqual([]);
  });
});

describe('mineInitialisms', () => {
  const chunk = (text: string, headingPath: string[] = []) => ({ text, headingPath });
  it('reads the terms a book writes in bold', () => {
    const found = mineInitialisms([chunk('- **Central Pattern Generators**: rhythmic gaits')]);
    expect(found.get('cpg')).toBe('central pattern generators');
  });
  it('reads a heading only when the text also uses its term', () => {
    const headingOnly = mineInitialisms([chunk('Rates change often.', ['New Pricing Models'])]);
    expect(headingOnly.has('npm')).toBe(false);
    const used = mineInitialisms([
      chunk('Each leg has six degrees of freedom.', ['Degrees of Freedom']),
      chunk('Arms add more degrees of freedom.'),
    ]);
    expect(used.get('dof')).toBe('degrees of freedom');
  });
  it('leaves out an initialism two terms share equally, and names a term inside its heading', () => {
    const tied = mineInitialisms([chunk('**Motion Planning** and **Model Predictive** control')]);
    expect(tied.has('mp')).toBe(false);
    const named = mineInitialisms([
      chunk('**Appendix: Soft Body Dynamics** and **Publish/Subscribe (Topics)**'),
    ]);
    expect(named.get('sbd')).toBe('soft body dynamics');
    expect(named.get('ps')).toBe('publish/subscribe');
  });
  it('reads no initials of a term that holds an acronym or a name with a capital inside', () => {
    // "TDD" is test-driven development and "JS" JavaScript, whatever the book's lists are called;
    // a term with a short form of its own in it is already short, and a product name is not
    // shortened to its initials.
    const found = mineInitialisms([
      chunk(
        '- **Twin Delayed DDPG**: a variant\n- **JetPack SDK**: the kit\n- **NVIDIA Isaac Sim**',
      ),
      chunk('- **Degrees of Freedom**: joints\n- **PyTorch Lightning**: a library', [
        'DEGREES OF FREEDOM',
      ]),
    ]);
    expect([...found.keys()].sort()).toEqual(['dof']);
  });
  it('counts the uses of many headings that share a first word in one pass over the text', () => {
    // 5,000 sections "The … Method" and text full of "the": trying every heading at every "the"
    // took 8 s here and minutes on a large corpus, on the first question (on the server's thread).
    // The work must grow with the text, not with text × headings: four times the sections take
    // about four times as long (16 times when every heading is tried at every "the"). The best
    // of five runs of each size is compared, so a busy machine does not decide the ratio (best of
    // three failed once in a full run at load 7).
    const word = (i: number) =>
      `w${i.toString(36).replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!)}`;
    const sections = (count: number) =>
      Array.from({ length: count }, (_, i) =>
        chunk(`${'the part of it and '.repeat(60)} the ${word(i)} model method`, [
          `The ${word(i)} Model Method`,
        ]),
      );
    const best = (chunks: ReturnType<typeof sections>) =>
      Math.min(
        ...[0, 1, 2, 3, 4].map(() => {
          const started = performance.now();
          mineInitialisms(chunks);
          return performance.now() - started;
        }),
      );
    const chunks = sections(5000);
    const small = best(sections(1250));
    expect(best(chunks) / small).toBeLessThan(9);
    const found = mineInitialisms(chunks);
    // Each heading's term is used in one chunk only: none is the book's term.
    expect(found.size).toBe(0);
  });
});
