import { describe, expect, it } from 'vitest';
import { cuePlaces, detectIntentCues, INTENT_CUES, isBareTerm } from './intent-cues.js';
import { normalizeWords } from './query-text.js';

const intentOf = (query: string) => detectIntentCues(normalizeWords(query)).intent;

describe('detectIntentCues: definitions', () => {
  it.each([
    'Costmap: one sentence, what is it?',
    'Lifecycle nodes in ROS 2: what are those?',
    'Unitree H1, what kind of robot is that?',
    "In URDF, what does the word 'link' refer to?",
    "What does the term 'affordance' mean?",
    'What is a quaternion?',
    // Acronyms asked by "expand" or "short for"; bare asks with how short or how real.
    'Expand ROS for me, please.',
    'IMU is short for what?',
    'Behavior trees: what are they, in a nutshell?',
    'Odometry. What is it, really?',
    'wat r quaternions',
    "Quaternions — what's that?",
    // A definition asked by "explain what … is" opens the question, beside the explanation cue.
    'Explain what a quaternion is',
    // "Explain what it is" with how short the answer should be; a qualifier after a plural term
    // or after "on"; a term, then what kind of thing it is, between alternatives.
    'Explain what that is in one line.',
    'What are joint torques when engineers talk about a walking gait?',
    'What is a spot fleet on Azure?',
    'Isaac Gym, is that a library or an app?',
    'is it a sensor, a board, a cable?',
    // "The X" placed in a field, as a textbook reader writes it.
    'What is the Jacobian matrix in robot kinematics?',
    'What is the zero moment point in humanoid locomotion?',
    // A unit on its own is a term.
    'What is a watt?',
  ])('reads a definition: %j', (query) => {
    expect(intentOf(query)).toBe('definition');
  });
  it.each([
    ['How does the planner know what my words refer to?', 'explanation'],
    ['What does the team have to show by the end of the term?', 'general'],
    ["Our nodes can't see each other. What's going wrong?", 'troubleshooting'],
    ["If the instance runs all week, what's the bill?", 'general'],
    ['What is the price of a Jetson?', 'specs'],
    // An amount of money is a figure, not a term to define.
    ['If the rig runs all weekend, what is that in euros?', 'specs'],
    ["If I rent it for a month, what's the damage in dollars?", 'specs'],
    // A request for how or why something works is an explanation.
    ['Tell me how the controller keeps the arm steady.', 'explanation'],
    // A definition word later in a question that opens with another form does not make it one.
    ['How does the planner tell which door you mean when you point?', 'explanation'],
    ['Why do people say the reality gap means trouble?', 'explanation'],
    // "expand" defines only as the request itself, not as a verb of the task.
    ['How do I expand my swap partition?', 'explanation'],
    // "By what means" asks how, not what a word means.
    ['By what means does the planner avoid a chair in its path?', 'general'],
    ['The arm drifted, so by which means do we re-home it?', 'general'],
    // "Is that a …" with no alternatives asks whether, not what kind of thing.
    ['My arm overshoots, is that a tuning issue?', 'general'],
    // "The X for Y" asks for a purpose, even placed.
    ['What is the plan for week 3 in the course?', 'guidance'],
    // "In hours", "in dollars" ask for a figure in a unit, not a term placed in a field.
    ['What is the battery life in hours?', 'general'],
    ['What is the total in dollars?', 'specs'],
    ['What is the boot time in seconds on the Jetson Orin?', 'general'],
  ])('does not read %j as a definition', (query, intent) => {
    expect(intentOf(query)).toBe(intent);
  });
});

describe('isBareTerm', () => {
  it.each([
    'Odometry?',
    'quaternion',
    '"Omniverse"',
    'VLA = ?',
    'loop closure =??',
    'IMU: ? (the sensor)',
    'URDF ?',
    '  "SLAM"  ?? ',
    'point cloud:?',
  ])('reads %j as a bare term', (query) => expect(isBareTerm(query)).toBe(true));
  it.each([
    'Capstone milestones',
    'Isaac hardware requirements',
    'What is a topic?',
    'why = because?',
    '42',
    'URDF ? please',
    'SLAM ?x',
  ])('does not read %j as one', (query) => expect(isBareTerm(query)).toBe(false));
});

describe('detectIntentCues: "wat even is it"', () => {
  it('reads a slangy ask for what a term is as a definition', () => {
    expect(intentOf('omniverse, what even is it')).toBe('definition');
    expect(intentOf('wat is it')).toBe('definition');
  });
});

describe('detectIntentCues: "what does X expand to"', () => {
  it('reads it as asking what an acronym stands for', () => {
    expect(intentOf('what does DDS expand to?')).toBe('definition');
    expect(intentOf('how does the costmap expand around obstacles?')).not.toBe('definition');
  });
});

describe('detectIntentCues: choosing one', () => {
  it.each([
    'How do I pick a Jetson for the course?',
    'how do we choose a depth camera',
    'How can I decide between the two laptops?',
    'How to select a GPU for training?',
  ])('reads %j as asking which to have (guidance), not how something works', (query) => {
    expect(intentOf(query)).toBe('guidance');
  });
  it.each(['How do you pick one of the many solutions?', 'How does the robot pick up a cup?'])(
    'keeps %j an explanation (a method, not a choice of ours)',
    (query) => {
      expect(intentOf(query)).toBe('explanation');
    },
  );
});

describe('detectIntentCues: the order of the cues', () => {
  // Each cue in the order its first match appears, as a stable sort by position gave them
  // (expected lists recorded before the cues were ordered as they are found).
  it.each([
    [
      'Why is it cheaper to let a learning agent crash thousands of times in Isaac Sim than on real gear?',
      ['explanation', 'specs', 'troubleshooting'],
      'explanation',
    ],
    [
      'the capstone robot tips over as soon as it starts talking to people, how do i debug the whole integrated thing',
      ['guidance', 'explanation', 'troubleshooting'],
      'guidance',
    ],
    [
      'The humanoid in our capstone keeps dropping messages between perception and planning. Latency spikes whenever the camera runs. How do we troubleshoot the integrated system?',
      ['troubleshooting', 'guidance', 'explanation'],
      'troubleshooting',
    ],
    [
      'What does LIDAR stand for, and which one should I buy for a small indoor robot?',
      ['definition', 'guidance', 'specs'],
      'definition',
    ],
  ])('%j', (query, cues, intent) => {
    const words = normalizeWords(query);
    expect(detectIntentCues(words)).toEqual({ cues, intent });
    expect(detectIntentCues(words, words.join(' '))).toEqual({ cues, intent });
  });
});

describe('detectIntentCues: not knowing what a term is', () => {
  it.each([
    'idk what a gimbal is',
    'dunno what odometry is',
    'not sure what a costmap is',
    'Remind me what DARwIn-OP is.',
    'Explain briefly what Isaac Gym is.',
    'I forgot what a URDF is',
    // The order of a direct question, as many non-native speakers write it.
    'Can you tell me what is a series elastic actuator?',
    'I would like to know what is odometry',
    'Can you say what is a lifecycle node?',
  ])('reads %j as a definition', (query) => {
    expect(intentOf(query)).toBe('definition');
  });
  it.each([
    // Not knowing which one to pick, or what comes next: a recommendation or a step, as after
    // "what is a …" (NOT_A_DEFINITION).
    "I'm not sure what the best GPU is",
    'idk what a good first robot is',
    'dunno what the next step is',
    'not sure what the minimum RAM is',
    'remind me what the next step is',
    // A value asked for, not a term (found by an outside reviewer).
    'remind me what the RAM requirement is',
    'I forgot what the deadline is',
    'explain briefly what the capstone is',
    'I forgot what my password is',
    'Can you tell me what is the deadline?',
    'tell me what is a good first robot',
    // Found by an outside review of the rule above: a participle, a comparison, a place.
    'Tell me what is graded in the capstone.',
    'Tell me what is cheaper, Jetson or cloud?',
    'Can you tell me what is covered in week 3?',
    'Tell me what is week 3 about.',
    'Can you tell me what is inside a servo motor?',
  ])('does not read %j as one', (query) => {
    expect(intentOf(query)).not.toBe('definition');
  });
});

describe('detectIntentCues: a description, then the term for it', () => {
  it.each([
    "what's the word for when a drone holds still in the wind?",
    "What's the technical term for a gripper that copies a hand?",
    "what's it called when a robot's joints line up and it loses a direction of motion?",
    'What do roboticists call the gap between a simulator and the real world?',
    'Is there a term for learning a task by watching someone do it?',
    'What is that trick where the simulator changes colours every episode called?',
    "what's the Jacobian when people talk about a robot arm?",
  ])('reads %j as a definition', (query) => {
    expect(intentOf(query)).toBe('definition');
  });
  it.each([
    // The names of things just listed, not a term; a first step asks what to do.
    'Into how many parts is the project split, and what are they called?',
    'What is the first step when the robot falls?',
  ])('does not read %j as one', (query) => {
    expect(intentOf(query)).not.toBe('definition');
  });
});

describe('cue places', () => {
  // Every alternative's first words, anchored forms, look-behinds and look-aheads, at the start,
  // inside and at the end of a text.
  it.each([
    'what is a topic',
    'so what is the jacobian matrix in robot kinematics',
    'how does the robot know which cup you mean',
    'by what means does it move and what does slam stand for',
    'can you tell me what is a series elastic actuator',
    'omniverse is that a program or a company',
    'the term costmap in the nav2 chapter',
    'i keep seeing the term costmap',
    'by the end of the term what is due',
    'expand lidar for me',
    'slam is short for what',
    'is there a word for a robot copying a person',
    'what do engineers call a robot that copies a person',
    'digital twin one sentence what is it',
    'how much ram does isaac sim need',
    'how do i pick a jetson and how do we decide between two arms',
    'should we split the capstone into phases per hour',
    'my robot keeps drifting and the arm falls over when it does not work',
    'tell me why the gpu crashes and how much does it cost in dollars',
    'wat r managed nodes',
    'remind me what darwin op is',
    'jetpack is what',
    'a revolute joint is what kind of joint',
    'so revolute joints are what kind of joints',
    'admittance control is what exactly',
    'lidar full form',
    'whats meant by the reality gap',
    'what counts as a humanoid robot',
    'unitree g1 what is this thing',
    'wats a quaternion',
    'so wats the word for a robot copying a person',
    'what iz odometry',
    'whats usually in a robot starter kit',
  ])('finds each cue where its expression does: %j', (text) => {
    const words = normalizeWords(text);
    for (const cue of INTENT_CUES) {
      const { found, searched } = cuePlaces(cue, words);
      expect(found).toBe(searched);
    }
  });
  // The first word decides whether the anchored forms are tried at it: every opener of them, and
  // words that open none, before tails that complete one form or another.
  it('finds each cue where its expression does, whatever the first word', () => {
    const firsts = (
      'so and ok hey um sorry quick also what whats wat wats please can could expand how which ' +
      'define explain tell is are the my costmap jetpack lidar i'
    ).split(' ');
    const tails = [
      'is a topic',
      'what is a topic',
      'question what is a costmap',
      'you expand slam',
      'expand slam',
      'counts as a humanoid robot',
      'is that a program or a company',
      'is what',
      'joint is what kind of joint',
      'are they a board or a kit',
      'is that thing where it maps called',
      'exactly is odometry',
      'r quaternions',
      'does slam stand for',
    ];
    for (const first of firsts)
      for (const tail of tails) {
        const words = normalizeWords(`${first} ${tail}`);
        for (const cue of INTENT_CUES) {
          const { found, searched } = cuePlaces(cue, words);
          expect(found, `${cue}: ${first} ${tail}`).toBe(searched);
        }
      }
  });
  // A start word that starts a cue only before certain words ("the term", "how much", "does
  // not"), at the start and inside a text, before each of them and before others.
  it('finds each cue where its expression does, whatever follows a start word', () => {
    const starts = 'the is are how do does what tell'.split(' ');
    const nexts = (
      'term there much does do did is are can could would should to not i we it you a what me ' +
      'need pick'
    ).split(' ');
    for (const start of starts)
      for (const next of nexts)
        for (const text of [
          `${start} ${next}`,
          `${start} ${next} i need a robot`,
          `so ${start} ${next} we pick a costmap`,
          `my robot ${start} ${next} work for slam`,
        ]) {
          const words = normalizeWords(text);
          for (const cue of INTENT_CUES) {
            const { found, searched } = cuePlaces(cue, words);
            expect(found, `${cue}: ${text}`).toBe(searched);
          }
        }
  });
});

describe('detectIntentCues: the term first, the ask last', () => {
  it.each([
    'Odometry is what?',
    'Admittance control is what exactly?',
    // "Full form", as acronyms are asked for in Indian English.
    'LiDAR, full form?',
    'what is the full form of IMU',
    'Sim-to-real transfer in robotics is what, in one sentence?',
    'A revolute joint is what kind of joint?',
    "What's meant by the reality gap?",
    'what counts as a humanoid robot',
    'Unitree G1, what is this thing?',
    // Typed fast: "wats", "what iz".
    'wats a quaternion',
    'what iz odometry',
  ])('reads a definition: %j', (query) => {
    expect(intentOf(query)).toBe('definition');
  });
  it.each([
    // A value asked for, not a term: "the X", "my X", "it".
    ['The deadline is what?', 'guidance'],
    ['My budget is what, then?', 'specs'],
    ['So the robot falls over, and then what?', 'troubleshooting'],
    ['What counts as late for the capstone?', 'general'],
    // A value asked for term-first, found by an outside review.
    ['Capstone deadline is what?', 'guidance'],
    ['Go2 battery life is what?', 'general'],
    ['Recommended GPU is what?', 'specs'],
    ['Capstone submission is what type of file?', 'general'],
    // A judgement of what qualifies, not a term.
    ['What counts as a good GPU?', 'general'],
    // A form to fill in is no acronym's "full form".
    ['Is there a full form I need to fill in for the lab?', 'general'],
    // What something usually holds, not what it is.
    ["What's usually in a robot starter kit?", 'general'],
    ['What is typically inside a lidar?', 'general'],
  ])('does not read %j as a definition', (query, intent) => {
    expect(intentOf(query)).toBe(intent);
  });
});
