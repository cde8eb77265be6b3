import { describe, expect, it } from 'vitest';
import { TEST_PHASE_SETTINGS, testRoutingModels } from '../../test/routing-phases.js';
import { asSourceless, decideQuery } from './multi-part.js';

const decide = (query: string) =>
  decideQuery(testRoutingModels().grounded, query, TEST_PHASE_SETTINGS);

describe('decideQuery', () => {
  it('takes the primary agent from the first ask and a secondary from a later ask', () => {
    const { result, clauses } = decide('How do Gazebo joints move, and what does revolute mean?');
    expect(result.primaryAgent).toBe('module_info');
    expect(result.secondaryAgents).toEqual(['glossary']);
    expect(clauses.map((clause) => clause.agent)).toEqual(['module_info', 'glossary']);
    expect(result.routingReason).toMatch(/^Multi-part question \(2 asks\)/);
    // Each secondary agent is given its own ask to answer.
    expect(result.secondaryAsks).toEqual({ glossary: 'what does revolute mean' });
  });
  it('takes the primary agent from a terse first ask added to a later one (R10)', () => {
    // Before, "Unitree G1 battery life" was context and the definition decided alone: glossary.
    expect(decide('Unitree G1 battery life, then define inverse kinematics').result).toMatchObject({
      primaryAgent: 'hardware',
      secondaryAgents: ['glossary'],
    });
    expect(
      decide('capstone grading rubric + which GPU should we rent for training').result,
    ).toMatchObject({ primaryAgent: 'capstone', secondaryAgents: ['hardware'] });
  });
  it('gives a later ask about the work itself to the default agent as a secondary', () => {
    // Before, the default agent was never a secondary: "how long is the course" went unanswered.
    expect(decide('What does revolute mean, and how long is the course?').result).toMatchObject({
      primaryAgent: 'glossary',
      secondaryAgents: ['book'],
      secondaryAsks: { book: 'how long is the course' },
    });
    // The primary answers the rest of the question, not the ask given away (an outside review
    // found "who is this book for" answered in place of the definition).
    expect(decide('What does revolute mean, and how long is the course?').result.primaryAsk).toBe(
      'What does revolute mean',
    );
    // "this guide" names the work: it points back at nothing asked before.
    expect(
      decide('What does revolute mean, and what does this guide cover?').result.secondaryAsks,
    ).toEqual({ book: 'what does this guide cover' });
  });
  it('gives a later ask naming a thing the book does not cover to the default agent', () => {
    // Before, the ask was dropped: the primary answered the whole question and never said the
    // book does not cover Peru (an outside review: "a part that finds nothing disappears").
    const { result } = decide('What does revolute mean, and what is the capital of Peru?');
    expect(result).toMatchObject({
      primaryAgent: 'glossary',
      secondaryAgents: ['book'],
      secondaryAsks: { book: 'what is the capital of Peru' },
      primaryAsk: 'What does revolute mean',
    });
    // The default agent is told what the book does not cover, to say so for that ask.
    expect(result.secondaryOffTopic?.book?.uncovered).toEqual(expect.arrayContaining(['peru']));
    // An ask in words the book does not use about what the ask before it is about is no such
    // thing ("what should we cut", "what does it involve"): the primary answers it.
    expect(
      decide('Can two people do the capstone, and what should we cut?').result.secondaryAgents,
    ).not.toContain('book');
  });
  it('asks a later ask that points back with the subject of the ask before it', () => {
    expect(
      decide('What is a Jetson, and how much power does it draw?').result.secondaryAsks,
    ).toEqual({ hardware: 'how much power does it draw jetson' });
  });
  it('takes a first ask about a subject the book does not cover as the primary, the fallback', () => {
    const { result } = decide("What's the capital of Peru, and what does Nav2 stand for?");
    expect(result.primaryAgent).toBe('book');
    expect(result.secondaryAgents).toEqual(['glossary']);
    // One such word in an ask of a sentence's length is its subject too (found by an outside
    // review): "How do vaccines work" asks about vaccines.
    expect(decide('How do vaccines work, and what does Nav2 stand for?').result).toMatchObject({
      primaryAgent: 'book',
      secondaryAgents: ['glossary'],
    });
    // One uncovered word may be elliptical: the later ask says what it is about.
    expect(
      decide('What processor and how much VRAM does the workstation need?').result.primaryAgent,
    ).toBe('hardware');
  });
  it('decides the first ask with the context before it ("it" is the workstation)', () => {
    const query =
      'My workstation has 24 GB of VRAM, how fast will it train policies, or do I need a cloud instance?';
    // Alone, the first ask is about training policies (module_info); its context says what "it" is.
    expect(decide('how fast will it train policies').result.primaryAgent).toBe('module_info');
    const { result, clauses } = decide(query);
    expect(result.primaryAgent).toBe('hardware');
    expect(clauses[0]?.text).toBe('how fast will it train policies');
  });
  it('keeps context the first ask does not point back at out of it', () => {
    // Alone, the first ask is about training policies; "My workstation…" is not what it asks about.
    const { result } = decide(
      'My workstation has 24 GB of VRAM. How fast do robots train policies, or is a cloud instance quicker?',
    );
    expect(result.primaryAgent).toBe('module_info');
  });
  it('reads the form from the one ask after some context', () => {
    const { result, clauses } = decide('I am new to robotics. What is a topic?');
    expect(result.primaryAgent).toBe('glossary');
    expect(clauses).toEqual([]);
  });
  it("reads a bare term as a definition (R3), whatever the term's domain", () => {
    for (const query of ['Costmap?', 'revolute', 'Gazebo joints = ?', 'VRAM: ?? (on the GPU)'])
      expect(decide(query).result.primaryAgent, query).toBe('glossary');
    // Two words without "= ?" still ask about the subject (R10: "Capstone milestones").
    expect(decide('Capstone milestones').result.primaryAgent).toBe('capstone');
  });
  it('reads the book named as the source of a recommendation as no question about the book', () => {
    expect(
      decide('Which Jetson does the textbook recommend for the robot?').result.primaryAgent,
    ).toBe('hardware');
    // Opening with it, the question is whether the book covers something.
    expect(decide('Does the book mention Gazebo?').result.primaryAgent).toBe('book');
    // The work's other names (work-names.ts) name it as the source too; "the class" is code's.
    expect(asSourceless('Which IMU does the guide suggest?')).toBe('Which IMU is suggested?');
    expect(asSourceless('Which robot does this class recommend?')).toBe(
      'Which robot is recommended?',
    );
    expect(asSourceless('Which IMU does the author pick?')).toBe('Which IMU is picked?');
    expect(asSourceless('Which method does the class use?')).toBe(
      'Which method does the class use?',
    );
  });
});
