import { describe, expect, it } from 'vitest';
import { plainInline } from './inline-markup.js';
import { splitSentences } from './sentences.js';

describe('plainInline', () => {
  it('reads strong text that holds its own marker characters', () => {
    expect(plainInline('**A* Algorithm**: Optimal path planning')).toBe(
      'A* Algorithm: Optimal path planning',
    );
    expect(plainInline('**D* Lite** and **A***')).toBe('D* Lite and A*');
    expect(plainInline('__max_speed__ caps the speed')).toBe('max_speed caps the speed');
  });

  it('reads emphasis, also with markers inside, and strong around emphasis', () => {
    expect(plainInline('an *important* step, _really_ important')).toBe(
      'an important step, really important',
    );
    expect(plainInline('set _use_sim_time_ first')).toBe('set use_sim_time first');
    expect(plainInline('***both*** and **bold *em* text**')).toBe('both and bold em text');
  });

  it('leaves markers that open or close nothing', () => {
    for (const text of [
      'A* and D* are graph searches',
      '2 * 3 * 4 = 24',
      'snake_case_name stays',
      'call f(*args, **kwargs)',
      'a lone ** here',
    ])
      expect(plainInline(text)).toBe(text);
  });

  it('reads code as written, markers and all, including code spans that hold backticks', () => {
    expect(plainInline('run `ros2 topic echo /a*b*c`')).toBe('run ros2 topic echo /a*b*c');
    expect(plainInline('the `**kwargs**` parameter')).toBe('the **kwargs** parameter');
    expect(plainInline('quote with `` `a` `` then ``x`y``')).toBe('quote with `a` then x`y');
  });

  it('reads links and images as their text, brackets and parentheses inside included', () => {
    expect(plainInline('see [Nav2 **docs**](https://nav2.org "Nav2")')).toBe('see Nav2 docs');
    expect(plainInline('[array[0]](https://x.org/a_(b)) and ![a diagram](img.png)')).toBe(
      'array[0] and a diagram',
    );
  });

  it('reads escaped markers as the characters they are', () => {
    expect(plainInline(String.raw`**A\* Algorithm** costs \*not\* much`)).toBe(
      'A* Algorithm costs *not* much',
    );
  });

  it('costs time in proportion to a line of stray markers', () => {
    const line = '**a* '.repeat(20_000);
    const started = performance.now();
    plainInline(line);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('quoted lines', () => {
  it('keep no markup when a bold label holds a star (the book\'s "A* Algorithm")', () => {
    const passage = [
      '- **Dijkstra**: Shortest path on a graph',
      '- **A* Algorithm**: Optimal path planning with heuristic search',
    ].join('\n');
    expect(splitSentences(passage).map((sentence) => sentence.text)).toEqual([
      'Dijkstra: Shortest path on a graph',
      'A* Algorithm: Optimal path planning with heuristic search',
    ]);
  });
});
