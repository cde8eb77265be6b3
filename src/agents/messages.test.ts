import { describe, expect, it } from 'vitest';
import {
  ANSWER_MESSAGES,
  answerMessages,
  EXTRACTIVE_NOTICE_PATTERN,
  extractiveNotice,
  quotedList,
  socialReplies,
} from './messages.js';

describe('the not-covered message', () => {
  it('joins the uncovered words as a sentence reads them', () => {
    expect(quotedList(['gold'], 'or')).toBe('"gold"');
    expect(quotedList(['gold', 'today'], 'or')).toBe('"gold" or "today"');
    expect(quotedList(['a', 'b', 'c'], 'and')).toBe('"a", "b" and "c"');
    expect(ANSWER_MESSAGES.notCovered(['gold', 'today'])).toBe(
      'The book does not cover "gold" or "today", so I can\'t answer that from it.',
    );
  });
});

describe('the notices name the work as it names itself', () => {
  it('says "The documentation" over a docs corpus, "The book" by default', () => {
    expect(answerMessages('documentation').notCovered(['pasta'])).toBe(
      'The documentation does not cover "pasta", so I can\'t answer that from it.',
    );
    expect(answerMessages('guide').nothingRelevant).toBe(
      "I couldn't find relevant information about that in the guide.",
    );
    expect(answerMessages(undefined).noPassageOn('x')).toBe(ANSWER_MESSAGES.noPassageOn('x'));
    expect(socialReplies('documentation').thanks).toBe(
      "You're welcome! Ask me anything else about the documentation.",
    );
  });
});

describe('the extractive line and the identity reply name the work', () => {
  it('says the answer quotes the documentation over docs, and offers no course', () => {
    // Over the ROS 2 docs: "this answer quotes the book directly", and "who are you?" offered
    // "what hardware it needs, or how the course is organised".
    expect(extractiveNotice('documentation')).toMatch(/quotes the documentation directly\./);
    expect(answerMessages('documentation').extractiveNotice).toBe(
      extractiveNotice('documentation'),
    );
    expect(EXTRACTIVE_NOTICE_PATTERN.test(extractiveNotice('documentation'))).toBe(true);
    const identity = socialReplies('documentation', false).identity;
    expect(identity).toMatch(/^I answer questions about the documentation/);
    expect(identity).not.toMatch(/course|hardware/);
    expect(socialReplies('book', true).identity).toMatch(/how the course is organised/);
  });
});
