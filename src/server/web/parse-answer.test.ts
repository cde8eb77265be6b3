import { describe, expect, it } from 'vitest';
import { parseAnswer, parseInlines } from './parse-answer.js';

describe('parseAnswer', () => {
  it('turns [n] markers into citations and keeps the text around them', () => {
    expect(parseInlines('A topic is a channel [1], see [12].')).toEqual([
      { kind: 'text', text: 'A topic is a channel ' },
      { kind: 'cite', n: 1 },
      { kind: 'text', text: ', see ' },
      { kind: 'cite', n: 12 },
      { kind: 'text', text: '.' },
    ]);
  });

  it('reads bold, italics and code, but not underscores inside words', () => {
    expect(parseInlines('**GPU:** RTX _fast_ `ros2 topic` snake_case_name')).toEqual([
      { kind: 'strong', text: 'GPU:' },
      { kind: 'text', text: ' RTX ' },
      { kind: 'em', text: 'fast' },
      { kind: 'text', text: ' ' },
      { kind: 'code', text: 'ros2 topic' },
      { kind: 'text', text: ' snake_case_name' },
    ]);
  });

  it('groups list lines and separates paragraphs, headings and rules', () => {
    const blocks = parseAnswer(
      'Intro line\nsame paragraph\n\n- one [1]\n- two\n1. first\n## Title\n---\nEnd',
    );
    expect(blocks.map((b) => b.kind)).toEqual(['p', 'ul', 'ol', 'heading', 'rule', 'p']);
    expect(blocks[0]).toEqual({
      kind: 'p',
      inlines: [{ kind: 'text', text: 'Intro line same paragraph' }],
    });
    expect(blocks[1]).toMatchObject({
      kind: 'ul',
      items: [[{ text: 'one ' }, { kind: 'cite', n: 1 }], [{ text: 'two' }]],
    });
  });

  it('keeps markup as text: nothing becomes HTML', () => {
    expect(parseAnswer('<img src=x onerror=alert(1)>')).toEqual([
      { kind: 'p', inlines: [{ kind: 'text', text: '<img src=x onerror=alert(1)>' }] },
    ]);
  });
});
