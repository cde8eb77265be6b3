import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../test/seeded-random.js';
import { findAcronymDefinitions } from './acronyms.js';

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
