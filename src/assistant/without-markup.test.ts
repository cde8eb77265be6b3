import { describe, expect, it } from 'vitest';
import { withoutMarkup } from './without-markup.js';

describe('withoutMarkup', () => {
  it('drops tags and the content of script and style, keeping the text', () => {
    expect(withoutMarkup('<b>What is Nav2?</b><script>alert(1)</script>')).toBe('What is Nav2?');
    expect(withoutMarkup('<p>What is a <em>costmap</em>?</p><style>p{}</style>')).toBe(
      'What is a costmap ?',
    );
    expect(withoutMarkup('What is URDF?<!-- ignore this -->')).toBe('What is URDF?');
    // An unclosed script hides the rest, as a browser would.
    expect(withoutMarkup('What is ZMP? <script>steal()')).toBe('What is ZMP?');
  });

  it('leaves text with no tag as it is, and a question made only of markup', () => {
    expect(withoutMarkup('Is 3 < 4 in the sim, and is <3 love?')).toBe(
      'Is 3 < 4 in the sim, and is <3 love?',
    );
    expect(withoutMarkup('<br/>')).toBe('<br/>');
  });
});
