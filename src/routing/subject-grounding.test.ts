import { describe, expect, it } from 'vitest';
import { learnBookKnowledge } from './book-knowledge.js';
import { englishDictionary } from './english-dictionary.js';
import { analyzeText } from './query-text.js';
import { compileKnowledge, isArithmetic } from './subject-grounding.js';

const knowledge = learnBookKnowledge(
  [
    'The Jetson Orin runs the perception stack on the robot.',
    'A costmap marks obstacles around the robot for the planner.',
    'Cloud instances cost money per hour; a workstation costs more up front.',
  ].map((text) => ({ domain: 'hardware', text, title: 'Hardware', headingPath: ['Hardware'] })),
);
const agents = [
  { name: 'hardware', keywords: ['jetson', 'laptop'], examples: ['Which GPU should I buy?'] },
];
const compiled = compileKnowledge(knowledge, agents, englishDictionary(), 'book');
const ground = (query: string) => compiled.ground(analyzeText(query));

describe('subject grounding', () => {
  it('judges each subject word once, in a long text as in a short one', () => {
    // Past 32 distinct stems the words met are remembered another way: a word repeated after
    // them is still judged once, and a grounding does not depend on the one before it.
    const many = Array.from(
      { length: 40 },
      (_, i) =>
        `zorb${String.fromCharCode(97 + Math.floor(i / 26))}${String.fromCharCode(97 + (i % 26))}`,
    );
    const text = `Does the costmap ${many.join(' ')} costmap jetson costmap?`;
    const grounding = ground(text);
    expect(grounding.subject.filter((word) => word === 'costmap')).toHaveLength(1);
    expect(grounding.subject.filter((word) => word === 'jetson')).toHaveLength(1);
    expect(new Set(grounding.uncovered).size).toBe(grounding.uncovered.length);
    expect(grounding.uncovered.length).toBeGreaterThan(32);
    expect(ground('Does the costmap run on the Jetson?')).toEqual(
      compileKnowledge(knowledge, agents, englishDictionary(), 'book').ground(
        analyzeText('Does the costmap run on the Jetson?'),
      ),
    );
  });
  it('judges a subject made only of names nobody knows as uncovered', () => {
    const grounding = ground('How much does bitcoin cost?');
    expect(grounding).toMatchObject({ judged: true, score: 0, uncovered: ['bitcoin'] });
  });
  it('leaves a name beside judged words unweighed (it may be a typo), but still lists it', () => {
    const grounding = ground('Does the Jetson Orin run the costmap on the zorblax?');
    expect(grounding.score).toBeGreaterThan(0.9);
    expect(grounding.uncovered).toEqual(['zorblax']);
  });
  it('weighs a name written as a name (capitalised inside the sentence): not a typo', () => {
    const grounding = ground('How much memory does Lightroom need on the Jetson?');
    expect(grounding.score).toBeLessThan(0.5);
    expect(grounding.uncovered[0]).toBe('lightroom');
    // At the start of a sentence a capital says nothing.
    expect(ground('Zorblax runs the costmap on the Jetson Orin?').score).toBeGreaterThan(0.9);
  });
  it('counts a specialist keyword written with letters and digits as a book term', () => {
    const withModels = compileKnowledge(
      knowledge,
      [{ name: 'hardware', keywords: ['jetson', 'g1', 'go2', 'ros 2'], examples: [] }],
      englishDictionary(),
      'book',
    );
    const grounding = withModels.ground(analyzeText('Go2 or G1 for a penniless undergrad club?'));
    expect(grounding.bookTerms).toEqual(['go2', 'g1']);
    expect(grounding.named).toBe(true);
    expect(grounding.covered).toEqual(expect.arrayContaining(['go2', 'g1']));
    expect(grounding.score).toBeGreaterThan(0.3);
    expect(withModels.ground(analyzeText('Does ROS 2 run here?')).bookTerms).toContain('ros 2');
    // A number alone is no keyword.
    expect(withModels.ground(analyzeText('Is 2 enough?')).bookTerms).toEqual([]);
    // Glued to more letters it is another name ("g1b"), not the G1; before a separator the head
    // is the keyword ("go2.edu" names the Go2).
    expect(withModels.ground(analyzeText('How do I get a G1B permit?')).bookTerms).toEqual([]);
    expect(withModels.ground(analyzeText('Is go2.edu a lab for the Go2?')).bookTerms).toEqual(
      expect.arrayContaining(['go2.edu']),
    );
  });
  it('grounds a model name the book writes with letters and digits, where the book uses it', () => {
    const book = learnBookKnowledge([
      {
        domain: 'hardware',
        text: 'The T4 and the L40S are data-centre GPUs.',
        title: 'GPUs',
        headingPath: ['GPUs'],
      },
      {
        domain: 'module_info',
        text: 'A costmap marks obstacles.',
        title: 'Nav',
        headingPath: ['Nav'],
      },
    ]);
    const withBook = compileKnowledge(book, agents, englishDictionary(), 'book');
    const grounding = withBook.ground(analyzeText('What is an L40S?'));
    expect(grounding).toMatchObject({ judged: true, named: true, bookTerms: ['l40s'] });
    expect(grounding.score).toBeGreaterThan(0.9);
    expect(grounding.domainShares.hardware).toBe(1);
    // A model name the book never writes is not its term.
    expect(withBook.ground(analyzeText('What is an X99?')).bookTerms).toEqual([]);
  });
  it('reads pronouns such as "something" and "I\'m" as function words, not names', () => {
    expect(ground("I'm here for something, anything").judged).toBe(false);
    expect(ground("I'm here for something: bitcoin").uncovered).toEqual(['bitcoin']);
    // "nobody", "everywhere" are pronouns too: they name no subject the book could lack.
    expect(ground('Is nobody anywhere, or everybody everywhere?').judged).toBe(false);
  });
  it('counts the covered words that meet in one passage (together), besides the whole share', () => {
    const book = learnBookKnowledge(
      [
        'A laptop with a discrete GPU runs the simulator for the lab.',
        'The camera streams video frames to the perception node.',
        'The simulator renders the lab scene with ray tracing.',
        'Perception nodes detect objects in the lab.',
        'The lab keeps spare batteries.',
      ].map((text) => ({ domain: 'hardware', text, title: 'Lab', headingPath: ['Lab'] })),
    );
    const lab = compileKnowledge(book, agents, englishDictionary(), 'book');
    const apart = lab.ground(analyzeText('laptop video'));
    expect(apart.score).toBeGreaterThan(0.9);
    expect(apart.together).toBeLessThan(0.7);
    const met = lab.ground(analyzeText('laptop simulator'));
    expect(met.together).toBeCloseTo(met.score, 5);
  });
  it('grounds what a question asks something for on its own', () => {
    const grounding = ground('Which laptop is best for a wedding photographer?');
    expect(grounding.purpose?.uncovered).toEqual(
      expect.arrayContaining(['wedding', 'photographer']),
    );
    expect(grounding.purpose?.score).toBe(0);
    expect(ground('What does IMU stand for?').purpose).toBeUndefined();
    expect(ground('Is a Jetson enough, for example for a costmap?').purpose).toBeUndefined();
  });
  it('reads no purpose in the object of "reach for", "look for", "wait for"', () => {
    expect(ground('Why must the gripper reach for a teacup slowly?').purpose).toBeUndefined();
    expect(ground('How does the planner look for a doorway?').purpose).toBeUndefined();
    // A later "for" that does name a purpose still counts.
    expect(ground('Why wait for a teacup for a wedding photographer?').purpose?.uncovered).toEqual(
      expect.arrayContaining(['wedding']),
    );
  });
  it('grounds the setting a question is asked in ("at a wedding") on its own', () => {
    expect(ground('What does a toast mean at a wedding reception?').purpose?.uncovered).toEqual(
      expect.arrayContaining(['wedding']),
    );
    expect(ground('What should the robot do at the end of the demo?').purpose).toBeUndefined();
    expect(ground('Can two nodes publish at the same time?').purpose).toBeUndefined();
  });
  it("grounds a definition's setting without the term's own words", () => {
    const define = (query: string) => compiled.ground(analyzeText(query), undefined, true);
    // "a planner in Planner.io": the setting's "planner" is the term again, not its field.
    const named = define('What is a planner in Planner.io?').purpose;
    expect(named?.subject).not.toContain('planner');
    expect(named?.score).toBe(0);
    // Another word of the term's stem is the setting's own.
    expect(define('What is a robot in robotics?').purpose?.subject).toContain('robotics');
    expect(define('What is a planner on the robot?').purpose?.score).toBeGreaterThan(0.9);
  });
  it("judges no word of the asker's own place ('at home', 'under my desk')", () => {
    const home = ground('Which Jetson should I buy to run the costmap at home?');
    expect(home.purpose?.subject).not.toContain('home');
    expect(home.purpose?.score).toBeGreaterThan(0.9);
    expect(ground('Can a workstation sit under my desk?').subject).not.toContain('desk');
    expect(ground('Does the Jetson fit in our tiny flat?').subject).not.toContain('flat');
    // Not a place the asker is in: a thing they own, or a place that names a kind of thing.
    expect(ground('How do I tidy my desk?').subject).toContain('desk');
    expect(ground('Does the Jetson work with my home router?').subject).toContain('home');
    expect(ground('Does the Jetson work on my home router?').subject).toContain('home');
  });
  it('reads "for her …" followed by a noun as a purpose, "for her" alone as a person', () => {
    expect(ground('Which laptop should I buy for her wedding photos?').purpose?.uncovered).toEqual(
      expect.arrayContaining(['wedding']),
    );
    expect(ground('Which laptop should I buy for her?').purpose).toBeUndefined();
  });
  it('reads "enough to" as the start of a purpose', () => {
    expect(ground('Is a laptop enough to photograph weddings?').purpose?.uncovered).toEqual(
      expect.arrayContaining(['weddings']),
    );
  });
  it('reads a purpose after "need to" or "buy to", and none in "for me"', () => {
    const wanted = ground('Which laptop would I need to edit wedding videos?');
    expect(wanted.purpose?.uncovered).toEqual(expect.arrayContaining(['wedding']));
    expect(ground('Which laptop should I buy to run the costmap?').purpose?.score).toBeGreaterThan(
      0.9,
    );
    // A word no lexicon places is a name there, lowercase or not: what the thing is wanted for.
    const game = ground('what gpu do i need to play valorant');
    expect(game.purpose?.subject).toEqual(expect.arrayContaining(['valorant']));
    expect(game.purpose?.score).toBeLessThan(0.5);
    expect(game.subject).not.toContain('valorant');
    // One bare verb after "need to" is what the subject must do.
    expect(ground('What does the costmap need to mark?').purpose).toBeUndefined();
    // "for me" names who asks: the purpose is the next "for", if any.
    expect(ground('Spell out IMU for me, letter by letter.').purpose).toBeUndefined();
    expect(ground('Could you find a laptop for me for wedding photos?').purpose?.uncovered).toEqual(
      expect.arrayContaining(['wedding']),
    );
  });
  it('finds no book term in a word that names a property of every object', () => {
    expect(() => ground('What is a constructor, or toString, or hasOwnProperty?')).not.toThrow();
    expect(ground('What is a constructor?').uncovered).toEqual(['constructor']);
  });
  it('reads interjections and when it is asked for as no subject', () => {
    // "weekend" and "fine" are nouns the book never uses, but name no subject.
    expect(ground('ok, but what would the Jetson cost me for a weekend').uncovered).toEqual([]);
    expect(ground('wait, does the costmap run tonight?').uncovered).toEqual([]);
  });
  it('has no subject to judge when the question is only its form', () => {
    expect(ground('How much does it cost?')).toMatchObject({ judged: false, score: 1 });
  });
});

describe('isArithmetic', () => {
  it.each([
    ['What is 17 times 23?', true],
    ['how much is 45 plus 12', true],
    ['What is 3 SQUARED?', true],
    ['Square root of 81?', true],
    ['What is seventeen times twenty-three?', false],
    ['weeks 1-3', false],
    ['How does a robot add two vectors?', false],
    ['what is 12 x 4?', true],
    ['what is 3.5 × 4', true],
    // Sizes written with "x" (found by an outside reviewer: the arbiter no longer reviews
    // arithmetic, so these went to the fallback for good).
    ['Which depth camera gives 640 x 480 at 90 fps for the robot?', false],
    ['What is a 3 x 3 rotation matrix in a URDF?', false],
    ['How do I set a 10 × 10 m map in Nav2?', false],
    // A share of a bare amount is arithmetic; a share of a quantity the book may measure is not.
    ['what is 15% of 480?', true],
    ['Work out 7.5 percent of €1,250.', true],
    ['A 20% discount on a jacket of 89.99, what do I pay?', true],
    ['Can the Jetson run at 80% of 15 W for an hour?', false],
    ['Is 90% of 8 GB of VRAM enough for Isaac Sim?', false],
    ['Why does the policy succeed 95% of the time?', false],
  ])('%j: %s', (query, arithmetic) => {
    expect(isArithmetic(analyzeText(query))).toBe(arithmetic);
  });
});
