import { describe, expect, it } from 'vitest';
import { splitClauses } from './clauses.js';

const asks = (query: string) => splitClauses(query).map(({ text, ask }) => [text, ask]);

describe('splitClauses', () => {
  it('opens the next ask with a clause that only leads into it ("Also,", "Oh, and")', () => {
    // Before, "Also" joined the ask before it: "Define VSLAM Also" was routed and answered.
    expect(splitClauses('Define VSLAM. Also, what are the capstone milestones?')).toEqual([
      { text: 'Define VSLAM', ask: true },
      { text: 'Also what are the capstone milestones', ask: true },
    ]);
    expect(splitClauses('What is URDF? Also, what GPU do I need?').map((c) => c.text)).toEqual([
      'What is URDF',
      'Also what GPU do I need',
    ]);
    // A lead-in at the very end leads into nothing and joins nothing.
    expect(splitClauses('What is a topic? And?').map((c) => c.text)).toEqual(['What is a topic']);
  });
  it('splits a new ask after a comma and marks both as asking', () => {
    expect(asks('How do URDF joints work, and what does revolute mean?')).toEqual([
      ['How do URDF joints work', true],
      ['what does revolute mean', true],
    ]);
  });
  it('reads "we\'re", "you\'re" and "they\'re" as context, not the question word "were"', () => {
    expect(asks("We're halfway through the ROS chapters. What is a node?")).toEqual([
      ["We're halfway through the ROS chapters", false],
      ['What is a node', true],
    ]);
    expect(asks("They're using Gazebo in the lab. Which GPU do they need?")[0]?.[1]).toBe(false);
  });
  it.each([
    'When I start the launch file, which process brings the nodes up?',
    'If the budget is small, which Jetson should we get?',
    'Before the robot leaves the simulator, how do we check the controller?',
    'Between grasping and walking, what does the planner do first?',
  ])('reads a scene-setting opening before the comma as context: %j', (query) => {
    const [context, question] = splitClauses(query);
    expect(context?.ask).toBe(false);
    expect(question?.ask).toBe(true);
    expect(splitClauses(query).filter((clause) => clause.ask)).toHaveLength(1);
  });
  it('reads a question word led by a preposition as an ask ("Into how many…", "In which…")', () => {
    expect(asks('Into how many parts is the lab budget divided, and what are they?')).toEqual([
      ['Into how many parts is the lab budget divided', true],
      ['what are they', true],
    ]);
    expect(asks('In which week do we meet Gazebo?')).toEqual([
      ['In which week do we meet Gazebo', true],
    ]);
  });
  it('reads "who\'s" as a question word and starts a new ask after ", plus"', () => {
    expect(asks("Who's the publisher, plus what does URDF abbreviate?")).toEqual([
      ["Who's the publisher", true],
      ['what does URDF abbreviate', true],
    ]);
  });
  it('starts a new ask at ", also" before a question word or a request, not before a thing', () => {
    expect(asks('how do I descale a kettle, also what is a costmap')).toEqual([
      ['how do I descale a kettle', true],
      ['what is a costmap', true],
    ]);
    expect(asks('Summarize the capstone rubric, also explain how SLAM works.')).toHaveLength(2);
    expect(asks('I have a Jetson, also a depth camera. Which driver do I need?')).toEqual([
      ['I have a Jetson, also a depth camera', false],
      ['Which driver do I need', true],
    ]);
  });
  it('reads a terse ask added to an ask after it by "; and", ", then" or "+" as an ask (R10)', () => {
    // Before, the first was context, so the ask after it decided the primary agent alone.
    expect(asks("Jetson Orin Nano memory size; and what's a TPU?")).toEqual([
      ['Jetson Orin Nano memory size', true],
      ["and what's a TPU", true],
    ]);
    expect(asks('Unitree G1 battery life, then define inverse kinematics')).toEqual([
      ['Unitree G1 battery life', true],
      ['define inverse kinematics', true],
    ]);
    // Both sides of "+" ask, whether or not either opens like a question.
    expect(asks('capstone grading rubric + spot instance prices for the sim')).toEqual([
      ['capstone grading rubric', true],
      ['spot instance prices for the sim', true],
    ]);
    expect(asks('weekly lab schedule + which simulator do we start with')).toEqual([
      ['weekly lab schedule', true],
      ['which simulator do we start with', true],
    ]);
  });
  it.each([
    // about the asker or what was said: context
    ['My laptop has 8 GB of RAM, and can it run Gazebo?'],
    ['Sorry for the basic question, but what is a joint?'],
    ['hmm right, and what does that cost?'],
    // a request opened by a verb: a sentence of its own
    ['Rename the helper functions in utils.py, and what is a lambda?'],
    // an added thing, not an ask: too short to name one
    ['Jetson kit, and what does it cost?'],
  ])('leaves context and requests before an added ask as they were: %j', (query) => {
    expect(splitClauses(query)[0]?.ask).toBe(false);
  });
  it('still reads "When is…" and "Where do…" as questions', () => {
    expect(asks('When is the capstone report due?')).toEqual([
      ['When is the capstone report due', true],
    ]);
    expect(splitClauses('Where do the URDF files live, and how are they loaded?')[0]?.ask).toBe(
      true,
    );
  });
  it('starts a new ask at "and tell me", "and describe", "then list"', () => {
    expect(asks('Define odometry and tell me how the robot estimates it.')).toEqual([
      ['Define odometry', true],
      ['tell me how the robot estimates it.', true],
    ]);
    expect(asks('Name the capstone phases, then list what hardware each one needs.')).toHaveLength(
      2,
    );
  });
  it('reads an ask opened by an aside ("and by the way what…") as an ask', () => {
    expect(
      asks('Is the course graded on a curve, and by the way what does IMU stand for?'),
    ).toEqual([
      ['Is the course graded on a curve', true],
      ['by the way what does IMU stand for', true],
    ]);
  });
  it('starts a new ask at "and who wrote / who is", not at a job or a relative clause', () => {
    expect(asks('What is the reality gap and who wrote this book?')).toEqual([
      ['What is the reality gap', true],
      ['who wrote this book', true],
    ]);
    // A relative clause after a comma is no new ask (found by an outside review).
    expect(asks('My advisor, who is a roboticist, says I should learn Gazebo first')).toEqual([
      ['My advisor, who is a roboticist, says I should learn Gazebo first', false],
    ]);
    expect(
      asks('our team cant agree who does perception and who does control, how should we split it'),
    ).toEqual([
      ['our team cant agree who does perception and who does control', false],
      ['how should we split it', true],
    ]);
  });
  it('keeps a two-word ask for a term after context as its own ask ("What\'s X?", "Define X")', () => {
    expect(splitClauses("We covered mapping on Monday. What's odometry?")).toEqual([
      { text: 'We covered mapping on Monday', ask: false },
      { text: "What's odometry", ask: true },
    ]);
    expect(splitClauses('Chapter 4 was dense. Define URDF.')).toEqual([
      { text: 'Chapter 4 was dense', ask: false },
      { text: 'Define URDF.', ask: true },
    ]);
    // Other short clauses still join the clause before them.
    expect(splitClauses('I like robots. Why?')).toEqual([{ text: 'I like robots Why', ask: true }]);
    expect(splitClauses("How do joints work? What's revolute?")).toHaveLength(1);
    // A word that is no noun asks about the context, found by an outside review.
    expect(splitClauses("The Go2 is expensive. What's cheaper?")).toHaveLength(1);
    expect(splitClauses("Finished chapter 2. What's after?")).toHaveLength(1);
  });

  it('leaves the spaces before a break out of the clause', () => {
    expect(asks('What is SLAM  ?  How does Nav2 use it \t; and why')).toEqual([
      ['What is SLAM', true],
      ['How does Nav2 use it and why', true],
    ]);
    expect(asks('My robot drifts   , and what should I check   ,   then tune?')).toEqual(
      asks('My robot drifts, and what should I check, then tune?'),
    );
  });
});
