import { describe, expect, it } from 'vitest';
import { questionAsRead } from './question-as-read.js';

describe('questionAsRead', () => {
  it('replaces whole words in any case, keeping a capital', () => {
    expect(questionAsRead('Topci? what is a topci, or TOPCI', [['topci', 'topic']])).toBe(
      'Topic? what is a topic, or Topic',
    );
  });
  it('leaves a word that only contains the slip', () => {
    expect(questionAsRead('topcis and mytopci', [['topci', 'topic']])).toBe('topcis and mytopci');
  });
  it('gives the text back when nothing was read as another word', () => {
    expect(questionAsRead('What is a topic?', undefined)).toBe('What is a topic?');
    expect(questionAsRead('What is a topic?', [])).toBe('What is a topic?');
  });
});
