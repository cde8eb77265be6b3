import { describe, expect, it } from 'vitest';
import { withoutAskingManner } from './stopwords.js';

describe('withoutAskingManner: how the answer should be put is not what is asked', () => {
  it('drops the manner at the end or the start of a question', () => {
    expect(withoutAskingManner('odometry in plain words?')).toBe('odometry?');
    expect(withoutAskingManner('What is a costmap, in a nutshell?')).toBe('What is a costmap?');
    expect(withoutAskingManner('lidar vs radar, briefly')).toBe('lidar vs radar');
    expect(withoutAskingManner('In simple terms, what does a gimbal do?')).toBe(
      'what does a gimbal do?',
    );
    expect(withoutAskingManner('Describe dead reckoning in one sentence.')).toBe(
      'Describe dead reckoning.',
    );
  });

  it('drops an opener asking for a short or simple answer', () => {
    expect(withoutAskingManner("TL;DR: what's a gimbal?")).toBe("what's a gimbal?");
    expect(withoutAskingManner('tldr - what is dead reckoning')).toBe('what is dead reckoning');
    expect(withoutAskingManner('ELI5: how does a gimbal work?')).toBe('how does a gimbal work?');
    expect(withoutAskingManner('Quick one: PWM = ?')).toBe('PWM = ?');
    // "TL;DR" and "ELI5" with any separator or none (found by an outside review).
    expect(withoutAskingManner('TL;DR what is a gimbal')).toBe('what is a gimbal');
    expect(withoutAskingManner('TL;DR. What is a gimbal?')).toBe('What is a gimbal?');
    expect(withoutAskingManner('tl;dr \u2014 what is a gimbal?')).toBe('what is a gimbal?');
    expect(withoutAskingManner('tldrs are long')).toBe('tldrs are long');
    // Only as an opener closed by a colon, comma or dash: "quick ones" are something asked about.
    expect(withoutAskingManner('Quick ones: are they safe?')).toBe('Quick ones: are they safe?');
  });

  it('keeps the words when they are part of what is asked', () => {
    // Mid-question the phrase is the subject's: a robot that reports in plain words, a linear joint.
    for (const query of [
      'How does the rover report in plain words what failed?',
      'Which joint moves in a line rather than rotating?',
      'in plain words?',
    ])
      expect(withoutAskingManner(query)).toBe(query);
  });
});

describe('withoutAskingManner: the closing phrase found without a leading run of separators', () => {
  // The expression as it was, separators and all: the reference the faster form must agree with.
  const MANNER =
    /(?:in\s+(?:plain|simple|layman'?s|everyday|easy|basic)\s+(?:words|terms|english)|in\s+(?:one|a)\s+(?:sentence|line|nutshell|few\s+words)|(?:explained\s+|put\s+)?simply|briefly|in\s+short)/;
  const END = new RegExp(`[\\s,;:-]*\\b${MANNER.source}(?=\\s*[?.!]*\\s*$)`, 'i');
  const START = new RegExp(`^\\s*${MANNER.source}\\s*[,:;-]\\s*`, 'i');
  const reference = (query: string) => {
    const stripped = query.replace(START, '').replace(END, '');
    return /[\p{L}\p{N}]/u.test(stripped) ? stripped : query;
  };

  it('strips what the old expression stripped, separators before the phrase included', () => {
    for (const query of [
      'What is SLAM , ;  - in plain words?',
      'odometry:\u00a0briefly!',
      'lidar -- simply put simply?',
      'Explain PID, in a nutshell. ',
      'in short',
      ', briefly?',
      'briefly, in short?',
      'what is a costmap;in one sentence?!',
      'IN SIMPLE TERMS, explain it in plain english',
      'a-briefly',
      'not briefly enough',
      'robot\tin few words?',
      'robot, in a few words?',
    ])
      expect(withoutAskingManner(query)).toBe(reference(query));
  });

  it('agrees with the old expression on random texts made of the phrases, separators and words', () => {
    const parts = [
      ' ',
      ',',
      ';',
      ':',
      '-',
      '?',
      '.',
      '!',
      '\t',
      '\u00a0',
      'in plain words',
      'in a nutshell',
      'briefly',
      'simply',
      'put simply',
      'in short',
      'robot',
      'What is',
      'a',
      'in',
      'é',
    ];
    let seed = 12345;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31);
    for (let i = 0; i < 5000; i += 1) {
      let query = '';
      const length = 1 + Math.floor(next() * 8);
      for (let j = 0; j < length; j += 1) query += parts[Math.floor(next() * parts.length)];
      expect(withoutAskingManner(query)).toBe(reference(query));
    }
  });
});
