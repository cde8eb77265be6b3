import { describe, expect, it } from 'vitest';
import { gluedNames, normalizeWords, textWords } from './query-text.js';

// The regular-expression normaliser the ASCII fast path replaced: both must give the same words.
function reference(text: string): string[] {
  const plain = !/[^\x20-\x7e]/.test(text)
    ? text
    : text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  return plain
    .toLowerCase()
    .replace(/['\u2019`]/g, '')
    .replace(/([a-z])(?=\d)|(\d)(?=[a-z])/g, '$1$2 ')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

describe('normalizeWords', () => {
  it.each([
    "What's a ROS2 topic?",
    'RTX 4090 vs. 4080: 24GB or 16GB?',
    "don't 'quote' me `on` it",
    "a'1 1'a x'' ''y 2d3d ros2humble",
    '   multiple   spaces\tand\nlines   ',
    "# Topics\nNodes\r\npublish2 topics\u0007\u007fit's",
    '',
    "'",
    'Crème brûlée — déjà vu?',
    'Ünïcödé and ASCII mixed: nav2’s costmap',
    // Beyond ASCII only after ASCII words, or the one character that lowercases into ASCII (the
    // Kelvin sign: a test over every code point in the test below).
    "Schrödinger's cat in ROS2",
    '\u212Aelvin scale, ros2 humble',
    'what is a costmap?\u00a0',
    'İstanbul robots',
  ])('gives the same words as the regular expressions for %j', (text) => {
    expect(normalizeWords(text)).toEqual(reference(text));
  });
  it('gives the same words for every character beyond ASCII that lowercases into ASCII', () => {
    for (let code = 0x80; code <= 0x10ffff; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCodePoint(code);
      const lower = char.toLowerCase();
      if ([...lower].some((c) => c.charCodeAt(0) >= 0x80)) continue;
      const text = `a${char}b ${char}2 x`;
      expect(normalizeWords(text)).toEqual(reference(text));
    }
  });
  it('gives the same words on random ASCII text, control characters (line breaks) included', () => {
    const alphabet = 'aZ09 \'`-_.?!,;:/\\+()[]{}"#@Qz\n\r\t\u0000\u001f\u007f';
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 2000; n += 1) {
      let text = '';
      const length = Math.floor(next() * 24);
      for (let i = 0; i < length; i += 1) text += alphabet[Math.floor(next() * alphabet.length)];
      expect(normalizeWords(text)).toEqual(reference(text));
    }
  });
  it('joins the words by single spaces, on plain and random text alike', () => {
    // The lowercased text stands for its joined words only when it is them: a sample of each way.
    const texts = [
      'what is a topic',
      'What is a Topic',
      'what  is',
      ' what',
      'what ',
      'ros2 humble',
    ];
    const alphabet = "aZ09 '`-.?,\n";
    let seed = 777;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 2000; n += 1) {
      let text = '';
      const length = Math.floor(next() * 16);
      for (let i = 0; i < length; i += 1) text += alphabet[Math.floor(next() * alphabet.length)];
      texts.push(text);
    }
    for (const text of texts) {
      const read = textWords(text);
      expect(read.joined, text).toBe(read.words.join(' '));
    }
  });
});

describe('normalizeWords, asked again for the same text', () => {
  it('gives the same words each time, in an array of its own', () => {
    const first = normalizeWords('How do ROS2 topics work?');
    first.push('changed');
    first[0] = 'changed';
    expect(normalizeWords('How do ROS2 topics work?')).toEqual([
      'how',
      'do',
      'ros',
      '2',
      'topics',
      'work',
    ]);
    // Texts asked in turn each keep their own words.
    for (const round of [1, 2, 3]) {
      expect(normalizeWords('Café au lait'), `round ${round}`).toEqual(['cafe', 'au', 'lait']);
      expect(normalizeWords("What's a node?"), `round ${round}`).toEqual(['whats', 'a', 'node']);
      expect(normalizeWords('g5.2xlarge'), `round ${round}`).toEqual(['g', '5', '2', 'xlarge']);
    }
  });
});

describe('textWords', () => {
  it('shares one split between texts that differ only by separators at their ends', () => {
    const clause = textWords('What is a topic');
    expect(textWords('What is a topic?')).toBe(clause);
    expect(textWords('  "What is a topic"?! ')).toBe(clause);
    expect(clause.words).toEqual(['what', 'is', 'a', 'topic']);
    expect(clause.joined).toBe('what is a topic');
  });
  it.each([
    ["'policy'?", ['policy']],
    ['\u201cpolicy\u201d?', ['policy']],
    ['\ufb01le?', ['file']],
    ['\u2460 ?', ['1']],
    ['x2?', ['x', '2']],
  ])('keeps what is not an ASCII separator at the ends of %j', (text, words) => {
    expect(textWords(text).words).toEqual(words);
    expect(textWords(text).words).toEqual(reference(text));
  });
  it("gives the regular expressions' words on texts read one after another with shared cores", () => {
    const edges = ['', '?', ' ', '!?', '"', '\u201d', "'", '.', '\u2460', '\ufb01'];
    const cores = ['What is a topic', 'ros2 nodes', "what's SLAM", 'caf\u00e9', 'a', ''];
    for (const core of cores)
      for (const before of edges)
        for (const after of edges) {
          const text = `${before}${core}${after}`;
          expect(textWords(text).words, JSON.stringify(text)).toEqual(reference(text));
        }
  });
});

describe('gluedNames', () => {
  it('finds the names the look-behind expression finds, in order', () => {
    const reference = (lower: string) =>
      lower.match(/(?<![a-z0-9])[a-z]+\d[a-z0-9]*(?![a-z0-9])/g) ?? [];
    for (const text of [
      'the a100 and the g5.2xlarge',
      'go2, tx2 and 3d5 on ros2_control; abc1def2 x9 9x 99 a b1c.d2 ',
      'jetson agx orin 64gb (a100-80gb) rtx4090ti/3080; ñ1 é9 ﬁ2 k1',
      '4a4 a4a4 _a1 a_1 1a a1',
      '',
    ])
      expect(gluedNames(text)).toEqual(reference(text));
  });
});
