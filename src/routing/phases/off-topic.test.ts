import { describe, expect, it } from 'vitest';
import { TEST_PHASE_SETTINGS, testContext, testRoutingModels } from '../../test/routing-phases.js';
import { decideQuery } from './multi-part.js';
import { offTopicPhase } from './off-topic.js';

describe('offTopicPhase', () => {
  it('sends a word the book never uses to the default agent, naming the word', () => {
    const decision = offTopicPhase(testContext("What does 'wanderlust' mean?"));
    expect(decision?.primary).toBe('book');
    expect(decision?.phase).toBe('fallback');
    expect(decision?.reason).toContain('does not cover "wanderlust"');
    // The uncovered words travel with the decision, so the fallback agent can name them.
    expect(decision?.offTopic).toEqual({ subject: ['wanderlust'], uncovered: ['wanderlust'] });
  });
  it('sends arithmetic to the default agent, with or without book knowledge', () => {
    for (const model of ['plain', 'grounded'] as const) {
      const decision = offTopicPhase(testContext('What is 7 times 8?', model));
      expect(decision?.offTopic).toBeUndefined();
      expect(decision?.primary).toBe('book');
      expect(decision?.reason).toMatch(/arithmetic/);
    }
  });
  it("leaves an ask about the book's structure to the structure phase, unless it names a thing", () => {
    // An outside review: "What parts is the book divided into?" was answered 'The book does not
    // cover "divided"'.
    const decide = (text: string) =>
      decideQuery(testRoutingModels().grounded, text, TEST_PHASE_SETTINGS).result;
    expect(offTopicPhase(testContext('What parts is the book divided into?'))).toBeUndefined();
    expect(decide('What parts is the book divided into?')).toMatchObject({
      primaryAgent: 'book',
      phase: 'fallback',
    });
    expect(decide('What parts is the book divided into?').offTopic).toBeUndefined();
    expect(
      offTopicPhase(testContext('Is there a chapter on baking bread?'))?.offTopic,
    ).toBeDefined();
  });
  it('reads a request for a list or a summary as the ask, not as its subject', () => {
    // "List the weeks of the course" was answered 'The book does not cover "list"', and "Name the
    // weeks of the course" 'does not cover "name"'.
    for (const ask of ['list', 'name', 'summarize', 'outline', 'give me'])
      expect(
        offTopicPhase(testContext(`${ask} the weeks of the course`))?.offTopic,
      ).toBeUndefined();
    expect(offTopicPhase(testContext('List the ingredients of a pizza'))?.offTopic).toBeDefined();
  });
  it('lets a book subject through, and judges nothing without book knowledge', () => {
    expect(offTopicPhase(testContext('What exactly is a node in ROS 2?'))).toBeUndefined();
    expect(offTopicPhase(testContext("What does 'wanderlust' mean?", 'plain'))).toBeUndefined();
  });
  it('does not let context before a grounded ask make the question off-topic', () => {
    const query = 'Sorry, dumb question from a florist. What does a publisher send?';
    // The whole text alone is mostly about the florist…
    expect(offTopicPhase(testContext(query))?.primary).toBe('book');
    // …but its ask names a subject of the book's, so the ask is routed.
    const decide = (text: string) =>
      decideQuery(testRoutingModels().grounded, text, TEST_PHASE_SETTINGS).result;
    expect(decide(query).primaryAgent).toBe('module_info');
    // An ask about the context's own subject stays off-topic.
    expect(
      decide("My grandmother's parrot is squawking again. Why do parrots do that?"),
    ).toMatchObject({ primaryAgent: 'book', phase: 'fallback' });
  });
  it('reads leave to copy or adapt the work as a question for its licence, not off-topic', () => {
    // A new user's question was answered 'The book does not cover "blog" or "spanish"'.
    const leave = 'Can I translate a chapter into Spanish and put it on my blog?';
    expect(offTopicPhase(testContext(leave, 'licensed'))).toBeUndefined();
    // A book with no licence page cannot answer it: the words it lacks still say so.
    expect(offTopicPhase(testContext(leave))?.offTopic).toBeDefined();
    // Copying something else is no leave to use the work (an outside review found these let
    // through): answers, homework, a possessive's thing.
    for (const query of [
      'Can I translate Spanish poems for my blog?',
      'Am I allowed to copy answers during the course exam?',
      "Can I share the course textbook's recipe for banana bread with my mom?",
    ])
      expect(offTopicPhase(testContext(query, 'licensed'))?.offTopic, query).toBeDefined();
  });
  it('reads whom the work thanks as a question for its acknowledgments, when it has them', () => {
    // "Who are the authors grateful to?" was refused as not covering "grateful".
    const thanks = 'Who are the authors grateful to?';
    expect(offTopicPhase(testContext(thanks, 'licensed'))).toBeUndefined();
    expect(offTopicPhase(testContext(thanks))?.offTopic?.uncovered).toContain('grateful');
  });
  it('does not let context about the reader make an ask about the course off-topic', () => {
    // A new user's question was answered 'The book does not cover "stuck"'.
    const decide = (text: string) =>
      decideQuery(testRoutingModels().grounded, text, TEST_PHASE_SETTINGS).result;
    expect(decide("I'm stuck and frustrated. Is this course hard?").offTopic).toBeUndefined();
    // An ask pointing back at the context is the context's subject (an outside review).
    expect(
      decide('My parrot keeps squawking. Does the book explain why they do that?').offTopic,
    ).toBeDefined();
    // A thing the book lacks, asked of the course, is still not the book's.
    expect(
      decide('My dog is sick. Does this course cover veterinary care?').offTopic?.uncovered,
    ).toContain('veterinary');
  });
  it('judges a setting put before the ask ("In economics, …") as part of it, not as context', () => {
    const decide = (text: string) =>
      decideQuery(testRoutingModels().grounded, text, TEST_PHASE_SETTINGS).result;
    // The field the term is asked in is not the book's, first or last.
    for (const query of ['In astronomy, what is a node?', 'What is a node, in astronomy?']) {
      expect(decide(query)).toMatchObject({ primaryAgent: 'book', phase: 'fallback' });
      expect(decide(query).routingReason).toContain('"astronomy"');
    }
    // Put first, the field is the ask's own, and certain: the book's "node" is another sense.
    expect(decide('In astronomy, what is a node?').offTopic?.certain).toBe(true);
    // A field the book covers, a manner and the book itself are no such setting.
    expect(decide('In ROS 2, what is a node?').primaryAgent).toBe('glossary');
    expect(decide('In simple terms, what is a node?').primaryAgent).toBe('glossary');
    expect(decide('In chapter 3, what is a node?').primaryAgent).toBe('glossary');
    // An occasion, a source, a place or a person's view is no field (found by an outside review).
    for (const query of [
      'In lecture, what is a node?',
      "In today's lecture, what is a node?",
      'In my country, what is a node?',
      'In the exam, what is a node?',
      'In India, what is a node?',
    ])
      expect(decide(query).primaryAgent).toBe('glossary');
  });
  it('keeps the context of an ask that names only everyday words the book uses', () => {
    const decide = (text: string) =>
      decideQuery(testRoutingModels().grounded, text, TEST_PHASE_SETTINGS).result;
    // "named" and "bus" are words the book uses, but neither a keyword nor a term of its own: the
    // parrot may well be what the ask is about ("My bank account was hacked. What is a security
    // key?" was routed to glossary by a rule letting two such words through).
    expect(
      decide('My parrot keeps squawking at the neighbours. What is a named bus?'),
    ).toMatchObject({ primaryAgent: 'book', phase: 'fallback' });
  });
  it('does not let context make a term the book never uses one of its own', () => {
    const decide = (text: string) =>
      decideQuery(testRoutingModels().grounded, text, TEST_PHASE_SETTINGS).result;
    const query = 'Our ROS 2 nodes publish on topics all day. What is photosynthesis?';
    expect(decide(query)).toMatchObject({ primaryAgent: 'book', phase: 'fallback' });
    expect(decide(query).routingReason).toContain('"photosynthesis"');
    // A learnt review may not bring it back: its only tie to the book is the context.
    expect(decide(query).offTopic?.certain).toBe(true);
    // An ask of another form may name no subject of its own: the context gives it one.
    expect(
      decide('Our ROS 2 nodes stopped exchanging messages. Where should we look?').primaryAgent,
    ).not.toBe('book');
    // An ask pointing back at the context is judged with it.
    expect(decide('Our robot uses Nav2 and a costmap. What is it, exactly?').primaryAgent).not.toBe(
      'book',
    );
  });
  it('keeps a question about what the course needs, whatever everyday word names the thing', () => {
    // "bungalow" and "barbecue" are words the test book never uses, but what they are wanted for
    // is the course itself: the question asks what the book requires.
    expect(
      offTopicPhase(testContext('Is my barbecue enough for the whole course?')),
    ).toBeUndefined();
    expect(offTopicPhase(testContext('Is my barbecue enough to follow along?'))).toBeUndefined();
    expect(
      offTopicPhase(testContext('Which barbecue should the lab buy for each student?')),
    ).toBeUndefined();
    // Without the course as its purpose, or with a purpose the book does not cover, it is off-topic.
    expect(offTopicPhase(testContext('Is my barbecue enough?'))?.primary).toBe('book');
    expect(offTopicPhase(testContext('Is my barbecue enough for a cooking course?'))?.primary).toBe(
      'book',
    );
  });
  it('does not judge a question about the work itself by the words it asks it in', () => {
    // The test book never calls itself a "textbook" nor says who it is "aimed" at or "written"
    // for: those words ask about the work, which the book is, so nothing here is off-topic.
    expect(offTopicPhase(testContext('Who is this textbook aimed at?'))).toBeUndefined();
    expect(offTopicPhase(testContext('Who is the guide written for?'))).toBeUndefined();
    expect(offTopicPhase(testContext('Which subjects does this handbook cover?'))).toBeUndefined();
    // A subject asked through the work is still judged: the book does not cover gardening.
    expect(
      offTopicPhase(testContext('What does this textbook say about wanderlust?'))?.primary,
    ).toBe('book');
  });
  it('reads "this class" as the work, so only what is asked of it is judged', () => {
    // An outside review: "Does this class teach welding?" counted "class" as part of its subject,
    // and the answer quoted the book's "Class Labeling" lines instead of saying it has no welding.
    expect(offTopicPhase(testContext('Does this class teach wanderlust?'))?.offTopic).toEqual({
      subject: ['wanderlust'],
      uncovered: ['wanderlust'],
    });
    expect(offTopicPhase(testContext('Who is this class written for?'))).toBeUndefined();
  });
  it('reads a "TL;DR:" opener as how the answer should be put, not as a subject', () => {
    const decide = (text: string) =>
      decideQuery(testRoutingModels().grounded, text, TEST_PHASE_SETTINGS).result;
    expect(decide("TL;DR: what's a revolute joint?").primaryAgent).toBe('glossary');
  });
});
