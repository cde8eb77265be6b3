import { describe, expect, it } from 'vitest';
import { measuresAsked, measureTerms } from './measure-words.js';

describe('measureTerms', () => {
  it('reads the measure an adjective asks for as the noun a book writes', () => {
    expect(measureTerms('How tall is the Unitree H1?')).toEqual(['height']);
    expect(measureTerms('how heavy is the G1')).toEqual(['weight']);
    expect(measureTerms('How much does the H1 weigh?')).toEqual(['weight']);
    expect(measureTerms('How long does the battery last?')).toEqual(['life', 'durat']);
    expect(measureTerms('How much does a Jetson cost?')).toEqual(['cost', 'price']);
  });

  it('names the measures asked', () => {
    expect(measuresAsked('How heavy is the G1, and how tall?').map((m) => m.name)).toEqual([
      'height',
      'weight',
    ]);
  });

  it('asks for no measure when the question does not', () => {
    expect(measureTerms('How long is the course?')).toEqual([]);
    // An outside review: "How long is this class?" opened with "The book does not state the
    // length asked about here" above the book's "12-13 week period".
    expect(measureTerms('How long is this class?')).toEqual([]);
    expect(measureTerms('How long is your textbook?')).toEqual([]);
    expect(measureTerms('How long is the cable?')).toEqual(['length']);
    // The work's names as every reader reads them (work-names.ts): "the docs", "the whole guide"
    // are the work; "the program" and "the class" are code's, as everywhere else.
    expect(measureTerms('How long is the documentation?')).toEqual([]);
    expect(measureTerms('How long is the whole guide?')).toEqual([]);
    expect(measureTerms('How long is the program?')).toEqual(['length']);
    expect(measureTerms('How long is the class?')).toEqual(['length']);
    expect(measureTerms('What is a costmap?')).toEqual([]);
    expect(measureTerms('How does SLAM work?')).toEqual([]);
  });
});
