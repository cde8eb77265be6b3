import { describe, expect, it } from 'vitest';
import { prepareDocument } from '../ingest/ingest.js';
import { findFullNames, fullNameOf } from './full-names.js';
import { buildLexicalIndex } from './lexical-index.js';
import { createRanker, DEFAULT_TECHNIQUES } from './ranker.js';

// Docs for a made-up kiln controller (new wording): "fireOS" is how they name the firmware, "Fire"
// alone appears once; "OpenKC" is a library, but "open" is everywhere.
const chunks = prepareDocument(
  'kiln.md',
  [
    '# Kiln Controller',
    '## Firmware on fireOS',
    'The controller runs fireOS 3. Update fireOS from the menu.',
    '## Platforms',
    'Tier 1: Linux boards. Tier 3: fireOS boards, with fireOS 2 drivers.',
    '## Flashing',
    'Flash fireOS over USB; a FireOS image is 4 MB.',
    '## Recovery',
    'If fireOS hangs, hold the reset key; fireOS then boots the backup image.',
    '## Safety',
    'Keep a fire blanket near the kiln.',
    '## Libraries',
    'OpenKC parses schedules. Open the lid, open the vent, open the log, open the door.',
    '## Vents',
    'Open the vent at 600 degrees; open it fully at 900. Leave it open while cooling.',
    '## Cones',
    'OpenKC reads cones; open a cone chart. OpenKC also logs. Open files with OpenKC.',
  ].join('\n\n'),
).chunks;
const index = buildLexicalIndex(chunks);
const names = findFullNames(chunks, { df: (term) => index.df(term) });
const fullName = fullNameOf(() => names);

describe('findFullNames', () => {
  it('gives each word with its full name, by word', () => {
    expect(names).toEqual([['fire', 'fireos']]);
  });

  it('reads a word the corpus writes mostly as the start of a name as that name', () => {
    expect(fullName('fire')).toBe('fireos');
  });
  it('leaves a word the corpus writes alone as often, and a word in no name', () => {
    expect(fullName('open')).toBeUndefined();
    expect(fullName('kiln')).toBeUndefined();
  });
});

describe('full names in the ranking', () => {
  it("finds the section that writes only the name for the word ('fire' → fireOS)", () => {
    // "USB" is in the flashing section only, "fire" alone in the safety one.
    const top = createRanker(chunks, { techniques: DEFAULT_TECHNIQUES }).rank('Is fire on USB?', {
      limit: 1,
    })[0]?.chunk.headingPath;
    expect(top?.at(-1)).toBe('Flashing');
  });
});
