import { describe, expect, it } from 'vitest';
import { socialMessage, withoutSocialOpener } from './social-message.js';

describe('socialMessage', () => {
  it.each([
    ['hello', 'greeting'],
    ['Hi there!', 'greeting'],
    ['Good morning 👋', 'greeting'],
    ['thanks!', 'thanks'],
    ['thank you, that helps', 'thanks'],
    ['ok great, thank you so much for your help', 'thanks'],
    ['Thanks a lot!!', 'thanks'],
    ['bye', 'farewell'],
    ['ok, see you later', 'farewell'],
    // An outside review: answered "I couldn't find relevant information about that in the book".
    ["No thanks, I'm done.", 'thanks'],
    ["That's all, bye", 'farewell'],
    ['ok', 'acknowledgement'],
    ['got it, makes sense', 'acknowledgement'],
    ['who are you?', 'identity'],
    ['What can you do?', 'identity'],
    ['help', 'identity'],
  ])('%s → %s', (message, kind) => {
    expect(socialMessage(message)).toBe(kind);
  });

  it.each([
    'Hi, what is a ROS 2 topic?',
    'thanks, and how do I install ROS 2?',
    'Who are you and what is URDF?',
    'Is this good?',
    'help me install ROS 2',
    'What does "hello world" print?',
    '',
    'good balance control',
  ])('asks something of the book: %s', (message) => {
    expect(socialMessage(message)).toBeUndefined();
  });
});

describe('withoutSocialOpener', () => {
  it.each([
    ['Thanks! What is a ROS 2 topic?', 'What is a ROS 2 topic?'],
    ['Hi, what is URDF?', 'what is URDF?'],
    ['ok thanks, and how do I install ROS 2?', 'and how do I install ROS 2?'],
    ['Who does the book thank?', 'Who does the book thank?'],
    ['thanks!', 'thanks!'],
    ['In ROS 2, what is a topic?', 'In ROS 2, what is a topic?'],
  ])('%s → %s', (query, rest) => {
    expect(withoutSocialOpener(query)).toBe(rest);
  });

  it('takes off three openers at most', () => {
    const hostile = `${'thanks, '.repeat(500)}what is a topic?`;
    expect(withoutSocialOpener(hostile)).toBe(`${'thanks, '.repeat(497)}what is a topic?`);
  });
});
