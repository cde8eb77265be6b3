import { describe, expect, it } from 'vitest';
import { analyze, QUERY_STOPWORDS } from '../../retrieval/index.js';
import type { RetrievedChunk } from '../../schema/index.js';
import { selectSentences } from './select-sentences.js';

const chunk = (section: string, text: string, score: number): RetrievedChunk => ({
  id: section,
  text,
  source: 'perception.md',
  title: 'Perception',
  section,
  score,
  domain: 'module_info',
  metadata: {},
});

const options = {
  terms: (text: string) => analyze(text),
  queryTerms: (text: string) => analyze(text, QUERY_STOPWORDS),
  style: 'general' as const,
};

const SENSORS = chunk(
  'Sensors',
  [
    'A mobile robot perceives its surroundings through several sensors working together.',
    '',
    '- **Lidar**: A sensor that measures distance with laser pulses',
    '- **Odometry**: Estimating how far the robot moved from its wheel encoders',
    '- **IMU**: Measures acceleration and angular velocity',
  ].join('\n'),
  0.8,
);
const DRIFT = chunk(
  'Drift',
  'Wheel slip makes odometry drift over time, so it is fused with the IMU. Robots also carry bump sensors.',
  0.6,
);

describe('selectSentences: the answer is about the subject asked', () => {
  it('quotes a bold list item that defines the term, first', () => {
    const picked = selectSentences('What is odometry?', [SENSORS, DRIFT], options);
    expect(picked[0]?.text).toBe(
      'Odometry: Estimating how far the robot moved from its wheel encoders',
    );
    for (const sentence of picked) expect(sentence.text.toLowerCase()).toContain('odometry');
  });

  it('reads "X defines …" as a definition of X', () => {
    // "What is a QoS profile?" over the ROS 2 docs opened with a FastDDS tutorial's "ROS 2 QoS
    // contained in rmw_qos_profile_t are always honored", whose "are" counted, above the concept
    // page's "A QoS profile defines a set of policies …".
    const fastdds = chunk(
      'Prioritization of rmw_qos_profile_t',
      'ROS 2 QoS contained in rmw_qos_profile_t are always honored, unless set to *_SYSTEM_DEFAULT.',
      0.9,
    );
    const profiles = chunk(
      'QoS profiles',
      'A QoS profile defines a set of policies that are expected to go well together for a particular use case.',
      0.85,
    );
    const picked = selectSentences('What is a QoS profile?', [fastdds, profiles], options);
    expect(picked[0]?.text).toMatch(/^A QoS profile defines/);
  });

  it('reads "X <verb>s …" as a definition of X, and not "X is <participle> …"', () => {
    // "What is a security enclave?" over the ROS 2 docs opened with "A ROS 2 security enclave is
    // established with six files", from a section ranked below the one that says what it is.
    const enclave = chunk(
      'The Security Enclave',
      'A security enclave encapsulates a single policy for protecting ROS communications.',
      0.9,
    );
    const files = chunk(
      'Security Files',
      'A ROS 2 security enclave is established with six files as outlined by the DDS specification.',
      0.85,
    );
    const picked = selectSentences('What is a security enclave?', [enclave, files], options);
    expect(picked[0]?.text).toMatch(/^A security enclave encapsulates/);
    // Asked with the docs' own context words, the second sentence covers more of them: the one
    // that opens with the subject and its verb still defines it.
    const inContext = 'What is a security enclave in ROS 2 security?';
    expect(selectSentences(inContext, [enclave, files], options)[0]?.text).toMatch(
      /^A security enclave encapsulates/,
    );
  });

  it('never quotes alone a list item that introduces items of its own', () => {
    // "Why can't my nodes see each other on different machines?" opened with "node: - Differences
    // from ROS 1:", a migration guide's item whose own items were left behind.
    const tag = chunk(
      'node',
      [
        '* Launches a new node.',
        '* Differences from ROS 1:',
        '',
        '   * The type attribute is now exec.',
        '   * The ns attribute is now namespace.',
      ].join('\n'),
      0.9,
    );
    const question = "Why can't my nodes see each other on different machines?";
    const picked = selectSentences(question, [tag], options);
    expect(picked.map((s) => s.text)).not.toContain('Differences from ROS 1:');
  });

  it('never quotes a list item that only repeats the question', () => {
    // "What is the robot state publisher for?" over the ROS 2 docs opened with "What's happening?:
    // - robot_state_publisher.", one name of a list of nodes, instead of the prose that says
    // what that node does.
    const demo = chunk(
      "What's happening?",
      [
        'If you have a closer look at the launch file, we start a couple of nodes at the same time.',
        '',
        '* dummy_laser',
        '* robot_state_publisher',
        '',
        'The robot_state_publisher is doing the actual interesting work: it parses the URDF file and publishes TF values.',
      ].join('\n'),
      0.8,
    );
    const picked = selectSentences('What is the robot state publisher for?', [demo], options);
    expect(picked.map((s) => s.text)).not.toContain('robot_state_publisher');
    expect(picked[0]?.text).toMatch(/^The robot_state_publisher is doing/);
  });

  it('picks nothing when no retrieved sentence names the subject (the book does not say)', () => {
    expect(selectSentences('What is a gyrocompass?', [SENSORS, DRIFT], options)).toEqual([]);
  });

  it('quotes the prose of a passage whose own heading names the subject', () => {
    // "What are the capstone milestones?" over a page titled "Capstone: Milestones, Deliverables
    // and Grading" found no sentence naming milestones, and answered that the book does not say.
    const page = chunk(
      'Capstone: Milestones and Grading',
      'How the capstone is run: teams, phases, deliverables and the final demo.',
      0.8,
    );
    expect(selectSentences('What are the capstone milestones?', [page], options)[0]?.text).toBe(
      'How the capstone is run: teams, phases, deliverables and the final demo.',
    );
    // A heading higher up spans a whole chapter: its prose names its own subject.
    const deeper = { ...page, section: 'Capstone: Milestones and Grading > Team rules' };
    expect(selectSentences('What are the capstone milestones?', [deeper], options)).toEqual([]);
  });

  it("quotes a passage whose document's title names the subject, as a last resort", () => {
    // "What is the weekly breakdown of the course?" found the weeks of "Chapter 18: Weekly
    // Breakdown" and said the book has nothing: no sentence says "breakdown".
    const week = {
      ...chunk('Weekly Structure > Week 1', '- Week 1: the concept of Physical AI', 0.9),
      title: 'Chapter 18: Weekly Breakdown',
    };
    expect(
      selectSentences('What is the weekly breakdown of the course?', [week], options).map(
        (sentence) => sentence.text,
      ),
    ).toEqual(['Week 1: the concept of Physical AI']);
  });

  it('quotes a sentence that introduces a list with its list', () => {
    // "Nav2 is the navigation framework for ROS 2, providing:" was quoted alone, followed by
    // another passage's lines, as if they were what it provides.
    const stack = chunk(
      'Navigation Stack',
      [
        'Nav2 is the navigation framework for ROS 2, providing:',
        '',
        '- Global Planner: Path planning from start to goal',
        '- Local Planner: Obstacle avoidance',
        '- Controller: Low-level motion control',
        '- Recovery: Behaviours when stuck',
      ].join('\n'),
      0.9,
    );
    const texts = selectSentences('What is Nav2?', [stack], { ...options, max: 1 }).map(
      (sentence) => sentence.text,
    );
    expect(texts).toEqual([
      'Nav2 is the navigation framework for ROS 2, providing:',
      'Global Planner: Path planning from start to goal',
      'Local Planner: Obstacle avoidance',
      'Controller: Low-level motion control',
      'Recovery: Behaviours when stuck',
    ]);
  });

  it('does not quote a sentence that introduces a list its passage does not hold', () => {
    // "… students will be able to:" stood alone: its outcomes are the sections after it.
    const outcomes = chunk(
      'Course Learning Outcomes',
      'Upon completion of this course on Nav2, students will be able to:',
      0.9,
    );
    const stack = chunk('Navigation Stack', 'Nav2 plans paths and avoids obstacles.', 0.8);
    const texts = selectSentences('What is Nav2?', [outcomes, stack], options).map((s) => s.text);
    expect(texts).toEqual(['Nav2 plans paths and avoids obstacles.']);
  });

  it('quotes the next sentence of a passage whose best one introduces a list it does not hold', () => {
    // "Course Learning Outcomes: … students will be able to:" was its passage's pick, then dropped
    // as introducing nothing, and the passage (the answer) was left out: the other passages had
    // taken every place.
    const outcome = chunk(
      'LO4: Navigation',
      [
        'Course Learning Outcomes: Upon completion of this course, students will be able to:',
        '',
        'Students will demonstrate understanding of navigation by:',
        '- Explaining how a planner finds a path',
        '- Tuning a costmap for a robot',
      ].join('\n'),
      0.9,
    );
    const week = chunk('Week 8', 'Students explore robot navigation with Nav2 this week.', 0.8);
    const texts = selectSentences(
      'By the end of this course, what will students be able to do in navigation?',
      [outcome, week],
      { ...options, max: 2 },
    ).map((s) => s.text);
    expect(texts).toContain('Students will demonstrate understanding of navigation by:');
    expect(texts).toContain('Explaining how a planner finds a path');
    expect(texts).not.toContain(
      'Course Learning Outcomes: Upon completion of this course, students will be able to:',
    );
  });

  it('matches a subject written as one word or two', () => {
    const grid = chunk('Planning', 'A costmap is a grid of traversal costs around the robot.', 0.7);
    expect(selectSentences('What is a cost map?', [grid], options)[0]?.text).toContain('costmap');
  });

  it('prefers "X is …" over a sentence that only mentions X', () => {
    const nodes = chunk(
      'Nodes',
      [
        'Run `ros2 node info /camera` and every node prints its topics.',
        'A node is one process with a single job, such as reading a camera.',
      ].join('\n'),
      0.9,
    );
    const picked = selectSentences('What exactly is a node in ROS 2?', [nodes], options);
    expect(picked[0]?.text).toBe(
      'A node is one process with a single job, such as reading a camera.',
    );
  });

  it('answers "how does X work" with what X is and its steps, not sentences about other things', () => {
    const loop = chunk(
      'Loop closure',
      [
        'Loop closure is how SLAM notices it has returned to a place it mapped before.',
        '1. The robot compares the current camera frame with stored keyframes.',
        '2. A match adds a constraint between the two poses.',
        '3. The pose graph is optimised, which removes the drift.',
        'Good lighting helps every camera.',
      ].join('\n'),
      0.9,
    );
    const gazebo = chunk('Gazebo', 'Gazebo renders camera images for simulated robots.', 0.85);
    const picked = selectSentences('How does loop closure work?', [loop, gazebo], options);
    expect(picked[0]?.text).toMatch(/^Loop closure is/);
    expect(
      picked.filter((s) => /^\d|The robot compares|A match adds|The pose graph/.test(s.text)),
    ).toHaveLength(3);
    expect(picked.map((s) => s.text).join(' ')).not.toMatch(/Gazebo|lighting/);
  });

  it('draws on the next passages too, at most two sentences from one of prose', () => {
    // Not a list asked for ("Which sensors does a robot carry?" quotes the list whole). The best
    // passage's own list is quoted whole (see "the answering passage's list" below), so the limit
    // is shown on prose.
    const sensing = chunk(
      'Sensing',
      [
        'A mobile robot senses its surroundings with several sensors.',
        'Range sensors on a mobile robot measure distance to its surroundings.',
        'Motion sensors of a mobile robot measure how it moves.',
        'Cameras let a mobile robot sense colours of its surroundings.',
      ].join(' '),
      0.8,
    );
    const question = 'How does a mobile robot sense its surroundings with sensors?';
    const picked = selectSentences(question, [sensing, DRIFT], options);
    expect(new Set(picked.map((s) => s.chunk))).toEqual(new Set([0, 1]));
    expect(picked.filter((s) => s.chunk === 0).length).toBeLessThanOrEqual(2);
    const listed = selectSentences(question, [SENSORS, DRIFT], options);
    expect(new Set(listed.map((s) => s.chunk))).toEqual(new Set([0, 1]));
  });

  it('accepts an acronym written out, and a list introduced by a sentence naming the subject', () => {
    const actuators = chunk(
      'Actuators',
      'Series Elastic Actuators put a spring between motor and joint to absorb impacts.',
      0.7,
    );
    expect(selectSentences('What is an SEA?', [actuators], options)[0]?.text).toMatch(
      /^Series Elastic/,
    );
    const kit = chunk(
      'Overview',
      [
        'The lab kit is packed as follows:',
        '- Box A: cameras, IMUs and their cables',
        '- Box B: motors, drivers and batteries',
      ].join('\n'),
      0.7,
    );
    const picked = selectSentences('How is the lab kit organized?', [kit], options).map(
      (s) => s.text,
    );
    // The items name neither "lab" nor "kit"; the sentence introducing them does.
    expect(picked).toContain('Box A: cameras, IMUs and their cables');
  });
});

describe('selectSentences: every section the ranking found close to the best is quoted', () => {
  const near = (section: string, text: string, score: number) => ({
    ...chunk(section, text, score),
    source: `${section.toLowerCase()}.md`,
  });
  const RANDOMIZATION = [
    near(
      'Physics Randomization',
      'Physics randomization varies mass and friction in every training episode. Randomized physics during training makes a policy robust to mass and friction errors.',
      0.66,
    ),
    near(
      'Environment Randomization',
      'Environment randomization varies lighting and terrain during training. Randomizing terrain friction during training keeps the policy from overfitting one floor.',
      0.56,
    ),
    near('System Parameters', 'Joint damping and motor strength are varied too.', 0.53),
  ];

  it('gives each passage its best sentence before any passage gives a second', () => {
    const picked = selectSentences(
      'For randomizing physics during training, which properties get varied, like mass or friction?',
      RANDOMIZATION,
      options,
    );
    // Before, two sentences each of the first two passages filled the answer and the third
    // passage (where damping and motor strength are) was never quoted.
    expect(new Set(picked.map((s) => s.chunk))).toEqual(new Set([0, 1, 2]));
    expect(picked[0]?.text).toMatch(/^Physics randomization varies/);
    expect(picked.map((s) => s.text)).toContain('Joint damping and motor strength are varied too.');
  });

  it('still leaves out passages far below the best', () => {
    const weak = near('Unrelated', 'Randomized textures of a far passage vary.', 0.2);
    const picked = selectSentences(
      'Which physics properties get randomized?',
      [...RANDOMIZATION, weak],
      options,
    );
    expect(picked.map((s) => s.chunk)).not.toContain(3);
  });
});

describe('selectSentences: a word of a paraphrase is not taken for the subject', () => {
  const RANDOMIZE = chunk(
    'Domain Randomization',
    'Domain randomization changes textures, lighting and camera noise in every simulation run, so a network trained on rendered images also works on real cameras.',
    0.4,
  );

  it('answers a long paraphrase whose "subject" the best passage does not name', () => {
    // Read as "What is a trick?": before, only sentences naming "trick" could be quoted, so the
    // answer was "not in the book" although the ranking found the section.
    const picked = selectSentences(
      "What's the trick for making a simulator look different each run so the network isn't fooled by real cameras later?",
      [RANDOMIZE],
      options,
    );
    expect(picked[0]?.text).toMatch(/^Domain randomization changes/);
  });

  it('keeps the subject required when it is what the question asks about', () => {
    expect(selectSentences('What is a trick?', [RANDOMIZE], options)).toEqual([]);
    // …or when the best passage names it: "What exactly is a node in ROS 2?" quotes node sentences.
    const ros = chunk(
      'ROS 2',
      'ROS 2 is the second generation of the Robot Operating System. A node is one process with a single job.',
      0.6,
    );
    const picked = selectSentences('What exactly is a node in ROS 2?', [ros], options);
    expect(picked.map((s) => s.text)).toEqual(['A node is one process with a single job.']);
  });

  it('requires the subject when told to (the router found the question off-topic)', () => {
    const legs = chunk('Legs', 'Lower body chains: legs with complex joint configurations.', 0.3);
    const query = "What's a good stretch for lower back pain?";
    expect(selectSentences(query, [legs], options)).not.toEqual([]);
    expect(selectSentences(query, [legs], { ...options, requireSubject: true })).toEqual([]);
  });
});

describe('selectSentences: the subject as the book names it', () => {
  it('reads "an SDF file" as SDF: the book names the format, not the file', () => {
    const formats = chunk(
      'Description Formats',
      'SDF (Simulation Description Format) describes robots and the worlds around them.',
      0.6,
    );
    // Before, the head word "file" had to be quoted, and no sentence had it: "not in the book".
    const picked = selectSentences('What is an SDF file?', [formats], options);
    expect(picked[0]?.text).toContain('Simulation Description Format');
    // A category noun is not the subject either: "configuration files" is no answer.
    const config = chunk('Settings', 'Configuration files hold the parameters of each node.', 0.7);
    expect(selectSentences('What is an SDF file?', [config], options)).toEqual([]);
  });

  it('reads "a VLA model" as VLA, but "a world model" as the term it is', () => {
    const vla = chunk(
      'Overview',
      'The Vision-Language-Action (VLA) pipeline integrates perception, understanding and action.',
      0.6,
    );
    const reconstruction = chunk(
      'Multi-View Integration',
      '- **3D Scene Reconstruction**: Building 3D models from 2D images',
      0.9,
    );
    // Before, "model" had to be named: the 3D models item was quoted, the VLA sentence never.
    const picked = selectSentences('What is a VLA model?', [reconstruction, vla], options);
    expect(picked.map((s) => s.text).join(' ')).toContain('(VLA) pipeline');
    expect(picked.map((s) => s.text).join(' ')).not.toContain('3D models');
    // "a QoS profile" too: the book writes "QoS policies", and "Resource Profiling" is no answer.
    const qos = chunk('QoS', 'QoS policies in ROS 2 allow fine-tuning of communication.', 0.5);
    const profiling = chunk('Profiling', '- **Resource Profiling**: Measuring usage profiles', 0.9);
    const qosPicked = selectSentences('What is a QoS profile?', [profiling, qos], options);
    expect(qosPicked.map((s) => s.text)).toEqual([
      'QoS policies in ROS 2 allow fine-tuning of communication.',
    ]);
    const planning = chunk('Planning', 'The robot plans in the world before it acts.', 0.7);
    expect(selectSentences("What's a world model?", [planning], options)).toEqual([]);
  });

  it("does not answer for one model with another's figures", () => {
    const g1 = chunk(
      'Unitree G1 Humanoid Robot > Specifications Overview',
      '- **Degrees of Freedom**: Advanced joint configuration\n- **Design Philosophy**: Cost-effective research',
      0.54,
    );
    const h1 = chunk(
      'Unitree H1 Humanoid Robot > Specifications Overview',
      '- **Height**: Approximately 1.3 meters\n- **Weight**: Around 40-45 kg',
      0.49,
    );
    const weightTerms = (text: string) => [...analyze(text, QUERY_STOPWORDS), 'weight'];
    const texts = (query: string) =>
      selectSentences(query, [g1, h1], { ...options, queryTerms: weightTerms }).map((s) => s.text);
    // The G1's list gives no weight: the H1's was quoted for it.
    expect(texts('How heavy is the Unitree G1?')).not.toContain('Weight: Around 40-45 kg');
    expect(texts('How heavy are the Unitree H1 and G1?')).toContain('Weight: Around 40-45 kg');
  });

  it('quotes the items of a section whose parent heading names the subject', () => {
    const specs = chunk(
      'Robot Platforms > Acme Q4 Quadruped > Specifications',
      ['- **Weight**: About 12 kg', '- **Legs**: Four, three joints each'].join('\n'),
      0.8,
    );
    // The items name neither "Acme" nor "Q4"; the heading above their own does.
    const picked = selectSentences('What is the Acme Q4?', [specs], options);
    expect(picked.map((s) => s.text)).toContain('Legs: Four, three joints each');
    // Headings further up span whole chapters and do not count.
    const deep = chunk(
      'Acme Q4 Quadruped > Field Trials > Logistics > Packing',
      '- **Crates**: Two per robot',
      0.8,
    );
    expect(selectSentences('What is the Acme Q4?', [deep], options)).toEqual([]);
  });

  it('answers "the benefits of X" from the section about X, not one whose heading says "Benefits"', () => {
    const scaling = chunk(
      'Cloud Computing > Benefits of Cloud Computing > Scalability',
      '- **Parallel Processing**: Using many machines for faster computation',
      0.7,
    );
    const multi = chunk(
      'Simulation Workloads > Multi-Instance Simulation',
      '- **Parallel Training**: Training multiple agents simultaneously',
      0.7,
    );
    // Before, "benefits" was the subject to define: only the other section's items named it.
    const picked = selectSentences(
      'What are the benefits of multi-instance simulation workloads?',
      [scaling, multi],
      options,
    );
    expect(picked.map((s) => s.text)).toContain(
      'Parallel Training: Training multiple agents simultaneously',
    );
  });

  it('does not require a clause the question form caught as its subject', () => {
    const demo = chunk(
      'Demo',
      'The final demo must show the rover crossing the yard and docking on its own.',
      0.5,
    );
    // "What's the minimum the rover has to do …" read as a definition of "minimum the rover has".
    const query = "What's the minimum the rover has to do to pass the demo?";
    expect(selectSentences(query, [demo], options)).not.toEqual([]);
  });
});

describe('selectSentences: the ranking order stands', () => {
  it('keeps a passage ranked above one the cutoff keeps, though its own-word score is lower', () => {
    // The ranking put the torso section second on synonyms of the question's words; its score
    // counts only the question's own words, under 0.6 of the best, so it was dropped before.
    const ranked = [
      chunk('Durability', 'Durability: keep the last message for late subscribers.', 0.33),
      chunk(
        'Torso and Neck',
        'The torso and neck keep the head steady while the robot balances.',
        0.185,
      ),
      chunk('Balance Control', 'Static balance keeps the centre of mass over the feet.', 0.22),
    ];
    const picked = selectSentences(
      'How does the back keep balance while looking?',
      ranked,
      options,
    );
    expect(picked.map((s) => s.chunk)).toContain(1);
  });

  it('quotes a passage scoring half the best: a paraphrase shares few words with its answer', () => {
    // "cash" and "renting" are not the book's words; the ranking placed the billing section
    // second through their synonyms, while the first passage matched "GPU" alone, well.
    const ranked = [
      chunk('GPU Models', 'The GPU of the workstation renders the simulated cameras.', 0.4),
      chunk('Billing', 'Budget alerts warn when spending on rented machines passes a limit.', 0.2),
    ];
    const query = 'How do I stop renting a GPU from eating all my cash?';
    expect(selectSentences(query, ranked, options).map((s) => s.chunk)).toContain(1);
    // The tail of a ranking still stays out: a passage under 0.45 of the best is not quoted.
    const tail = [ranked[0] as RetrievedChunk, { ...(ranked[1] as RetrievedChunk), score: 0.17 }];
    expect(selectSentences(query, tail, options).map((s) => s.chunk)).not.toContain(1);
    // The share is an option.
    expect(
      selectSentences(query, ranked, { ...options, relativeCutoff: 0.6 }).map((s) => s.chunk),
    ).not.toContain(1);
  });
});

describe('selectSentences: lists and comparisons asked for (outside review, 2026-11-29)', () => {
  const LIFECYCLE = chunk(
    'Lifecycle Nodes > Lifecycle States',
    [
      '- **Unconfigured**: Node created but not configured',
      '- **Inactive**: Configured but not active',
      '- **Active**: Running and processing data',
      '- **Finalized**: Ready for cleanup',
    ].join('\n'),
    0.8,
  );
  const WEEK = chunk('Week 5', '- Lifecycle nodes and state management', 0.7);
  const STATE = chunk('State', 'The robot state publisher reads the joint states of a node.', 0.6);

  it('quotes the whole list a question asks for, not its first item', () => {
    // Before: "- Unconfigured: …" alone, then the week plan and the state publisher.
    const picked = selectSentences(
      'What are the lifecycle states of a ROS 2 lifecycle node?',
      [LIFECYCLE, WEEK, STATE],
      options,
    );
    const items = picked.filter((s) => s.chunk === 0).map((s) => s.text.split(':')[0]);
    expect(items).toEqual(['Unconfigured', 'Inactive', 'Active', 'Finalized']);
  });

  it('quotes the list a sentence introduces when it names what is listed', () => {
    const rl = chunk(
      'The RL Framework',
      [
        'Reinforcement Learning is defined by four key components:',
        '- **Agent**: The learning entity',
        '- **Environment**: The world the agent acts in',
        '- **State**: The current situation',
        '- **Action**: The decision made',
        '- **Reward**: The feedback signal',
      ].join('\n'),
      0.8,
    );
    const picked = selectSentences(
      'What are the components of the reinforcement learning framework?',
      [rl, STATE],
      options,
    );
    expect(picked.filter((s) => s.listItem).map((s) => s.text.split(':')[0])).toEqual([
      'Agent',
      'Environment',
      'State',
      'Action',
      'Reward',
    ]);
  });

  it('quotes both sides of a comparison, from the list that holds them', () => {
    // Before: "Static Balance" alone, then a kinematics line naming static and dynamic analysis.
    const walking = chunk(
      'Walking Patterns',
      [
        '- **Static Balance**: Maintaining balance at all times (slow, stable)',
        '- **Dynamic Balance**: Using momentum to maintain balance (natural, efficient)',
        '- **Gait Cycle**: The repeating pattern of steps',
      ].join('\n'),
      0.8,
    );
    const kinematics = chunk(
      'Static vs. Dynamic Kinematics',
      '- **Static Analysis**: Motion without considering dynamics',
      0.75,
    );
    const picked = selectSentences(
      'What is the difference between static balance and dynamic balance?',
      [walking, kinematics],
      { ...options, maxPerChunk: 1 },
    );
    const texts = picked.map((s) => s.text);
    expect(texts).toContain('Static Balance: Maintaining balance at all times (slow, stable)');
    expect(texts).toContain(
      'Dynamic Balance: Using momentum to maintain balance (natural, efficient)',
    );
  });

  it('reads the sentence that spells an acronym out as its definition', () => {
    const vla = chunk(
      'Overview',
      'The VLA approach is fundamental to capable robots. The Vision-Language-Action (VLA) pipeline integrates perception, understanding and action.',
      0.8,
    );
    const picked = selectSentences('What does VLA stand for?', [vla], {
      ...options,
      style: 'definition',
    });
    expect(picked[0]?.text).toContain('Vision-Language-Action (VLA)');
  });
});

describe('selectSentences: figures in the units a spec is written in', () => {
  it('reads a network speed as a figure, so the line the question names is quoted', () => {
    // A second review: "What network performance do G5 instances offer?" quoted the GPU memory
    // line, whose "24GB" counted as a figure while "100 Gbps" did not.
    const specs = chunk(
      'Instance Specifications > Technical Specifications',
      [
        '- **GPU Memory**: Varies by instance type (24GB per A10G)',
        '- **Network Performance**: Up to 100 Gbps networking',
      ].join('\n'),
      0.8,
    );
    const picked = selectSentences('What network performance do G5 instances offer?', [specs], {
      ...options,
      style: 'specs',
      max: 1,
    });
    expect(picked[0]?.text).toBe('Network Performance: Up to 100 Gbps networking');
  });
});

describe('selectSentences: a list written as sibling sections', () => {
  const phase = (own: string, ord: number, score: number, items: string[]): RetrievedChunk => ({
    ...chunk(
      `Implementation Roadmap > Development Phases > ${own}`,
      items.map((i) => `- ${i}`).join('\n'),
      score,
    ),
    source: 'capstone.md',
    metadata: {
      headingPath: ['Capstone', 'Implementation Roadmap', 'Development Phases', own],
      ord,
    },
  });
  const passages = [
    phase('Phase 2: Integration', 12, 0.63, [
      'Multi-modal perception integration',
      'Complex task execution',
    ]),
    phase('Phase 3: Autonomy', 13, 0.63, ['Long-term autonomy capabilities']),
    phase('Phase 1: Foundation', 11, 0.62, [
      'Basic locomotion and balance',
      'Simple manipulation capabilities',
    ]),
    phase('Phase 4: Deployment', 14, 0.62, ['Real-world deployment']),
    chunk(
      'Redundant Manipulation > Task Prioritization',
      '- **Projection Methods**: Projecting tasks to appropriate spaces',
      0.55,
    ),
  ];

  it("quotes each section in the book's order and nothing chosen for other words", () => {
    // Before: the answer was the one passage naming "project" ("Projecting tasks"), or the phases
    // in rank order (2, 3, 1, 4).
    const picked = selectSentences(
      'What are the phases of the capstone project?',
      passages,
      options,
    );
    expect(picked.map((s) => s.text)).toEqual([
      'Basic locomotion and balance',
      'Simple manipulation capabilities',
      'Multi-modal perception integration',
      'Complex task execution',
      'Long-term autonomy capabilities',
      'Real-world deployment',
    ]);
  });

  it('keeps the ranking when the best passage is not one of the sections', () => {
    const better = chunk(
      'Capstone Overview',
      'The capstone project runs in phases, from foundation to deployment, over the last weeks.',
      0.9,
    );
    const picked = selectSentences(
      'What are the phases of the capstone project?',
      [better, ...passages],
      options,
    );
    expect(picked[0]?.text).toMatch(/^The capstone project runs in phases/);
  });
});

describe('selectSentences: comparisons state each side, first', () => {
  it('quotes the line stating a side, not one naming both sides or mentioning it in passing', () => {
    // Before: "Balancing: … between exploration and exploitation" counted as quoting exploration,
    // and "Exploration: Trying new actions …" was left out.
    const list = chunk(
      'RL Problem Types > Exploration vs. Exploitation',
      [
        '- **Exploration**: Trying new actions to discover better strategies',
        '- **Exploitation**: Using known good actions to maximize rewards',
        '- **Balancing**: Managing the trade-off between exploration and exploitation',
      ].join('\n'),
      0.86,
    );
    const mapping = chunk(
      'SLAM > Map Building',
      '- **Initial Mapping**: Building maps during exploration',
      0.45,
    );
    const texts = selectSentences(
      'What is the difference between exploration and exploitation?',
      [list, mapping],
      options,
    ).map((s) => s.text);
    expect(texts).toContain('Exploration: Trying new actions to discover better strategies');
    expect(texts).toContain('Exploitation: Using known good actions to maximize rewards');
  });

  it("leads with the sides' own sections, in the question's order", () => {
    // Before: a Jacobian item and a DH item came first, the two definitions fourth and fifth.
    const passages = [
      chunk(
        'Inverse Kinematics > Numerical Methods > Jacobian Matrix',
        '- **Computation**: Partial derivatives of forward kinematics',
        0.72,
      ),
      chunk(
        'Coordinate Systems > Denavit-Hartenberg (DH) Convention',
        '- **Forward Kinematics**: Using DH parameters to compute end-effector pose',
        0.61,
      ),
      chunk(
        'Inverse Kinematics > Concept and Purpose',
        'Inverse kinematics solves for the joint angles required to achieve a desired end-effector position and orientation.',
        0.64,
      ),
      chunk(
        'Forward Kinematics > Concept and Purpose',
        'Forward kinematics computes the position and orientation of the end-effector given the joint angles.',
        0.64,
      ),
    ];
    const texts = selectSentences(
      'What is the difference between forward and inverse kinematics?',
      passages,
      options,
    ).map((s) => s.text);
    expect(texts[0]).toMatch(/^Forward kinematics computes/);
    expect(texts[1]).toMatch(/^Inverse kinematics solves/);
  });

  it('does not take a bare name of a side for a line stating it', () => {
    const references = chunk('References > Official Documentation', '- ROS 2 Documentation', 0.7);
    const patterns = chunk(
      'Core Concepts > Communication Patterns',
      'ROS 2 provides multiple communication patterns to suit different use cases.',
      0.6,
    );
    const texts = selectSentences(
      'How does ROS 2 differ from ROS 1?',
      [references, patterns],
      options,
    ).map((s) => s.text);
    expect(texts[0]).not.toBe('ROS 2 Documentation');
  });
});

describe('selectSentences: the list asked for leads', () => {
  const urdf = chunk(
    'What is URDF?',
    [
      'URDF describes:',
      '',
      '- **Kinematic structure**: How different parts of the robot are connected',
      '- **Joint constraints**: Limits and ranges of motion',
    ].join('\n'),
    0.68,
  );
  const joints = chunk(
    'URDF Structure > Joints',
    [
      'Joints connect links and define their relative motion:',
      '',
      '- **Fixed**: No relative motion between links',
      '- **Revolute**: Single-axis rotation with limits',
      '- **Prismatic**: Single-axis translation with limits',
    ].join('\n'),
    0.62,
  );

  it('puts the list under a heading that is the noun asked first', () => {
    // Before: "What is URDF?"'s items came first and the joint types fifth.
    const texts = selectSentences(
      'What joint types does URDF support?',
      [urdf, joints],
      options,
    ).map((s) => s.text);
    expect(texts.slice(0, 4)).toEqual([
      'Joints connect links and define their relative motion:',
      'Fixed: No relative motion between links',
      'Revolute: Single-axis rotation with limits',
      'Prismatic: Single-axis translation with limits',
    ]);
  });

  it('keeps the ranking when the heading holds words the question does not', () => {
    const architecture = chunk(
      'Optimization Techniques > Architecture Optimization',
      '- **Containerization**: Using containers for better resource utilization',
      0.73,
    );
    const estimation = chunk(
      'Budget Planning > Estimation Techniques',
      '- **Historical Data**: Using past usage to estimate future optimization costs',
      0.57,
    );
    const picked = selectSentences(
      'Which architecture optimization techniques does the book recommend?',
      [architecture, estimation],
      options,
    );
    expect(picked[0]?.text).toMatch(/^Containerization/);
  });
});

describe('selectSentences: a how-to question gets the command', () => {
  const RECORD = chunk(
    'Record a topic',
    [
      'To record the data published to a topic use the command syntax:',
      '',
      '```',
      'ros2 bag record <topic_name>',
      '```',
      '',
      'Before running this command on your topic, open a new terminal and move into the bag_files directory you created, because the bag file is saved where you run it.',
    ].join('\n'),
    0.9,
  );

  it('quotes the sentence that introduces the command, with the command as code', () => {
    // The prose around the command named more of the question's words, and was quoted without it.
    const picked = selectSentences('How do I record a topic to a bag file?', [RECORD], {
      ...options,
      max: 1,
    });
    expect(picked).toEqual([
      expect.objectContaining({
        text: 'To record the data published to a topic use the command syntax:',
        code: 'ros2 bag record <topic_name>',
      }),
    ]);
  });

  it('quotes the command for a question that asks for one without "how do I"', () => {
    // "Is there a command that lists every topic of a given type?" quoted prose around the
    // `ros2 topic find` section and left the command out: only "How do I …" let code in.
    const picked = selectSentences(
      'Is there a command that saves a topic to a bag file?',
      [RECORD],
      options,
    );
    expect(picked.map((sentence) => sentence.code)).toContain('ros2 bag record <topic_name>');
  });

  it('quotes the command when the question asks how only after saying its situation', () => {
    // "I installed ROS 2 with apt and now want to switch to a source build. How do I remove the
    // packages …?" was read as no how-to: the sentence introducing the command was no candidate.
    const picked = selectSentences(
      'I ran a test drive yesterday and want to keep it. How do I save the topic to a bag file?',
      [RECORD],
      { ...options, max: 1 },
    );
    expect(picked).toEqual([
      expect.objectContaining({
        text: 'To record the data published to a topic use the command syntax:',
        code: 'ros2 bag record <topic_name>',
      }),
    ]);
  });

  it('leaves the code out of an answer about something else', () => {
    // A re-run of the review's probes: any question quoting code brought terminal output, YAML
    // schemas and graphviz blocks into answers about concepts.
    const listing = chunk(
      'Topics',
      [
        'Topics carry messages between nodes. The topics a running system has are listed below:',
        '',
        '```',
        '/parameter_events',
        '/rosout',
        '```',
      ].join('\n'),
      0.9,
    );
    const picked = selectSentences(
      'Why do topics carry messages between nodes?',
      [listing],
      options,
    );
    expect(picked.length).toBeGreaterThan(0);
    expect(picked.every((sentence) => sentence.code === undefined)).toBe(true);
  });

  it('keeps a sentence ending in a colon that introduces code rather than a list', () => {
    const picked = selectSentences('What does ros2 bag record?', [RECORD], options);
    expect(picked.map((sentence) => sentence.code)).toContain('ros2 bag record <topic_name>');
  });
});

describe('selectSentences: a sentence that points to other text is not the answer', () => {
  it('quotes the sentence that states the value over the one announcing the text below', () => {
    const domains = chunk(
      'Choosing a domain ID',
      [
        'The text below explains the derivation of the range of domain IDs that should be used.',
        'To skip that background and just choose a safe number, choose a domain ID between 0 and 101.',
      ].join('\n'),
      0.9,
    );
    const picked = selectSentences('Which domain IDs are safe to use?', [domains], {
      ...options,
      max: 1,
    });
    expect(picked.map((sentence) => sentence.text)).toEqual([
      'To skip that background and just choose a safe number, choose a domain ID between 0 and 101.',
    ]);
  });
});

describe('selectSentences: the list a quoted sentence goes on to introduce', () => {
  it('quotes "This is particularly important for:" and its list after the sentence it continues', () => {
    const lifecycle = chunk(
      'Lifecycle Nodes',
      [
        'ROS 2 introduces lifecycle nodes that provide a state machine for managing the state of nodes. This is particularly important for:',
        '',
        '- **Safety-critical applications**: Ensuring proper initialization and shutdown',
        '- **Complex systems**: Coordinating multiple components',
        '- **Resource management**: Efficiently managing computational resources',
      ].join('\n'),
      0.9,
    );
    const states = chunk(
      'Lifecycle States',
      '- **Unconfigured**: Node created but not configured',
      0.8,
    );
    const picked = selectSentences('Why are lifecycle nodes important?', [lifecycle, states], {
      ...options,
      max: 2,
    });
    expect(picked.filter((sentence) => sentence.chunk === 0).map((s) => s.text)).toEqual([
      'ROS 2 introduces lifecycle nodes that provide a state machine for managing the state of nodes.',
      'This is particularly important for:',
      'Safety-critical applications: Ensuring proper initialization and shutdown',
      'Complex systems: Coordinating multiple components',
      'Resource management: Efficiently managing computational resources',
    ]);
  });
});

describe("selectSentences: a course's objectives and weekly plan are not an answer about a topic", () => {
  const withPath = (path: string[], text: string, score: number): RetrievedChunk => ({
    ...chunk(path.slice(1).join(' > '), text, score),
    metadata: { headingPath: path },
  });
  const objectives = withPath(
    ['ROS 2 Part 2', 'Learning Objectives'],
    '- Describe the lifecycle node concept and its benefits',
    0.8,
  );
  const week = withPath(
    ['Weekly Breakdown', 'Weekly Structure', 'Week 5: Advanced ROS 2 Concepts'],
    '- Lifecycle nodes and state management',
    0.75,
  );
  const lifecycle = withPath(
    ['ROS 2 Part 2', 'Lifecycle Nodes'],
    'Lifecycle nodes provide a state machine for managing the operational state of nodes.',
    0.7,
  );

  it('leaves out lines that only name the topic', () => {
    // Before: "Describe the lifecycle node concept and its benefits" and the week's line were
    // quoted beside the answer, as if they said something of lifecycle nodes.
    const texts = selectSentences(
      'Why are lifecycle nodes important?',
      [objectives, week, lifecycle],
      options,
    ).map((s) => s.text);
    expect(texts).toEqual([
      'Lifecycle nodes provide a state machine for managing the operational state of nodes.',
    ]);
  });

  it('quotes them when the question asks about the course, or when nothing else names the topic', () => {
    const asked = selectSentences(
      'Which week covers lifecycle nodes?',
      [objectives, week, lifecycle],
      options,
    ).map((s) => s.text);
    expect(asked).toContain('Lifecycle nodes and state management');
    const alone = selectSentences(
      'Why are lifecycle nodes important?',
      [objectives, week],
      options,
    );
    expect(alone.length).toBeGreaterThan(0);
  });
});

describe('selectSentences: a sentence opening with a pronoun comes with the one it refers to', () => {
  it('quotes the sentence before "It …" from the same passage, first', () => {
    // The re-run review found answers opening "It provides …", which says nothing of what "it" is.
    const gazebo = chunk(
      'Simulators > Gazebo',
      'Gazebo is the simulator the course uses for its first labs. It simulates rigid body physics with several physics engines.',
      0.8,
    );
    const texts = selectSentences('Which engines simulate rigid body physics?', [gazebo], {
      ...options,
      max: 1,
    }).map((s) => s.text);
    expect(texts.slice(0, 2)).toEqual([
      'Gazebo is the simulator the course uses for its first labs.',
      'It simulates rigid body physics with several physics engines.',
    ]);
  });

  it('does not bring a page\'s field line before "This …"', () => {
    // "What is colcon?" over the ROS 2 docs quoted "Time: 20 minutes." before "This is a brief
    // tutorial on how to create and build a ROS 2 workspace with colcon."
    const tutorial = chunk(
      'Using colcon to build packages',
      'Time: 20 minutes\n\nThis is a brief tutorial on how to create and build a ROS 2 workspace with colcon.',
      0.8,
    );
    const texts = selectSentences('What is colcon?', [tutorial], options).map((s) => s.text);
    expect(texts).toContain(
      'This is a brief tutorial on how to create and build a ROS 2 workspace with colcon.',
    );
    expect(texts).not.toContain('Time: 20 minutes');
  });
});

describe('selectSentences: a sentence introducing code that is not quoted', () => {
  const SPEEDS = chunk(
    'Pump speeds',
    [
      "The garden pump's speeds are ordered by power:",
      '',
      '```',
      'High',
      'Medium',
      'Low',
      '```',
      '',
      'The default speed is Medium.',
    ].join('\n'),
    0.8,
  );
  const HOSE = chunk('Hoses', 'A longer hose lowers the pressure the garden pump delivers.', 0.85);

  it('is no candidate: the passage is quoted by its next sentence instead', () => {
    const picked = selectSentences(
      'What is the default speed of the garden pump?',
      [HOSE, SPEEDS],
      {
        ...options,
        max: 2,
      },
    );
    expect(picked.map((s) => s.text)).toContain('The default speed is Medium.');
    expect(picked.map((s) => s.text)).not.toContain(
      "The garden pump's speeds are ordered by power:",
    );
  });
});

describe("selectSentences: the answering passage's list is quoted whole (outside review, 2026-11-30)", () => {
  const list = (section: string, items: string[], score: number) =>
    chunk(section, items.map((item) => `- ${item}`).join('\n'), score);
  const GRASPING = list(
    'Manipulation > Grasp Planning',
    [
      '**Analytic Grasping**: Computing force closure from the object geometry',
      '**Learned Grasping**: Predicting stable grasp poses from examples',
      '**Tactile Feedback**: Adjusting the grip from touch sensing',
      '**Regrasping**: Recovering from a grasp that slips',
    ],
    0.8,
  );
  const DETECTION = list(
    'Perception > Object Detection',
    [
      '**Pose Estimation**: Locating objects before a stable grasp',
      '**Segmentation**: Separating objects in a cluttered scene',
    ],
    0.7,
  );
  const GRIPPERS = list(
    'Hardware > Grippers',
    [
      '**Parallel Grippers**: Two fingers for a simple stable grasp',
      '**Suction Cups**: Vacuum for flat surfaces',
    ],
    0.65,
  );
  const labels = (picked: { text: string; chunk: number }[], chunk: number) =>
    picked.filter((s) => s.chunk === chunk).map((s) => s.text.split(':')[0]);

  it("quotes the best passage's list whole, and one line of each weaker passage", () => {
    // Before: one or two items of the grasping list, then single items of the other sections.
    const picked = selectSentences(
      'How does a robot plan a stable grasp?',
      [GRASPING, DETECTION, GRIPPERS],
      options,
    );
    expect(labels(picked, 0)).toEqual([
      'Analytic Grasping',
      'Learned Grasping',
      'Tactile Feedback',
      'Regrasping',
    ]);
    expect(labels(picked, 1)).toHaveLength(1);
    expect(labels(picked, 2)).toHaveLength(1);
  });

  it('does not quote whole a best passage whose heading names nothing asked', () => {
    // "How do I keep cloud costs down?" quoted all of "Price Trends" (hardware costs falling,
    // competition among providers…), a list about something else, at the head of the answer.
    const trends = list(
      'Cloud > Price Trends',
      [
        '**Hardware Costs**: Decreasing cost of GPU hardware',
        '**Competition**: Price competition among providers',
        '**Economies of Scale**: Cost reductions from scale',
      ],
      0.8,
    );
    const picked = selectSentences(
      'How do I keep my cloud costs down?',
      [trends, DETECTION],
      options,
    );
    expect(labels(picked, 0).length).toBeLessThan(3);
  });

  it('quotes whole the list under a heading that is the question, though ranked below', () => {
    const overview = list(
      'Arm Control > Control Overview',
      [
        '**Visual Servoing**: Closing the loop on camera images',
        '**Impedance Control**: Regulating contact forces',
      ],
      0.8,
    );
    const servoing = list(
      'Arm Control > Visual Servoing',
      [
        'Image-based servoing: Driving image features to their targets',
        'Position-based servoing: Estimating the pose, then moving to it',
        'Hybrid servoing: Combining image and pose errors',
      ],
      0.7,
    );
    const picked = selectSentences(
      'How does visual servoing guide a robot arm?',
      [overview, servoing],
      options,
    );
    expect(labels(picked, 1)).toEqual([
      'Image-based servoing',
      'Position-based servoing',
      'Hybrid servoing',
    ]);
  });

  it('quotes a long list up to its first items', () => {
    const steps = list(
      'Calibration > Camera Calibration',
      Array.from({ length: 10 }, (_, i) => `Calibration check ${i + 1} of the camera lens`),
      0.8,
    );
    const picked = selectSentences('How is a camera calibrated?', [steps], options);
    expect(picked.length).toBeGreaterThan(2);
    expect(picked.length).toBeLessThanOrEqual(6);
  });

  it('still leads a definition with the defining line, and every line names the subject', () => {
    const trees = list(
      'Decision Making > Behavior Trees',
      [
        '**Behavior Tree**: A tree of tasks that decides what a robot does next',
        '**Sequence Nodes**: Run their children in order',
        '**Fallback Nodes**: Try their children until one succeeds',
      ],
      0.8,
    );
    const machines = list(
      'Decision Making > State Machines',
      ['**Finite State Machine**: States and transitions, an alternative to a behavior tree'],
      0.7,
    );
    const other = list('Planning > Tasks', ['**Task Queue**: Jobs waiting to run'], 0.6);
    const picked = selectSentences('What is a behavior tree?', [trees, machines, other], {
      ...options,
      style: 'definition',
    });
    expect(picked[0]?.text).toBe(
      'Behavior Tree: A tree of tasks that decides what a robot does next',
    );
    expect(labels(picked, 0)).toEqual(['Behavior Tree', 'Sequence Nodes', 'Fallback Nodes']);
    expect(picked.map((s) => s.text).join(' ')).not.toContain('Task Queue');
  });
});

describe('selectSentences: lists over the ROS 2 docs (outside review, 2026-11-30)', () => {
  const POLICIES = chunk(
    'QoS policies',
    [
      'The base QoS profile currently includes settings for the following policies:',
      '',
      '* History',
      '',
      '  * *Keep last*: only store up to N samples, configurable via the queue depth option.',
      '  * *Keep all*: store all samples, subject to the configured resource limits.',
      '',
      '* Depth',
      '',
      '  * *Queue size*: only honored if the "history" policy was set to "keep last".',
      '',
      '* Reliability',
      '',
      '  * *Best effort*: attempt to deliver samples, but may lose them if the network is not robust.',
      '  * *Reliable*: guarantee that samples are delivered, may retry multiple times.',
      '',
      '* Durability',
      '',
      '  * *Volatile*: no attempt is made to persist samples.',
    ].join('\n'),
    0.9,
  );
  const DEFAULTS = chunk(
    'QoS policies',
    'For each of the policies that is a duration, there also exists a "default" option that means the duration is unspecified.',
    0.95,
  );

  it('quotes the outer items of a nested list asked for, not its first settings', () => {
    // Before: History, Keep last, Keep all, Depth, Queue size, Reliability, Best effort, Reliable.
    const picked = selectSentences('What are the QoS policies?', [POLICIES], options);
    expect(picked.filter((s) => s.listItem).map((s) => s.text)).toEqual([
      'History',
      'Depth',
      'Reliability',
      'Durability',
    ]);
  });

  it('quotes the settings of the one policy asked about, and no other item of the list', () => {
    // Before: the first eight items flat, "Keep last: … queue depth option" first.
    const picked = selectSentences('What are the QoS reliability options?', [POLICIES], options);
    expect(picked.filter((s) => s.listItem).map((s) => s.text.split(':')[0])).toEqual([
      'Best effort',
      'Reliable',
    ]);
  });

  it('leads with the list headed as asked, also in a definition', () => {
    // Before: the definition's best-scored sentence (the other part's defaults) came first.
    const picked = selectSentences('What are the QoS policies?', [DEFAULTS, POLICIES], {
      ...options,
      style: 'definition',
    });
    expect(picked[0]?.chunk).toBe(1);
  });

  it("does not quote a changelog's list as the list asked for, unless releases are asked", () => {
    const changelog: RetrievedChunk = {
      ...chunk(
        'rcl_lifecycle',
        [
          '* updating quality declaration links (#909)',
          '* make rcl_lifecycle_com_interface optional in lifecycle nodes (#882)',
          '* Make sure to always check lifecycle return values (#840)',
          '* Add lifecycle node state transition instrumentation (#804)',
        ].join('\n'),
        0.8,
      ),
      source: 'Releases/Galactic-Geochelone-Complete-Changelog.rst',
      title: 'Galactic Geochelone changelog',
    };
    const items = (query: string) =>
      selectSentences(query, [changelog], options).filter((s) => s.listItem).length;
    // Before: all four commit titles, as the states.
    expect(items('What are the lifecycle node states?')).toBeLessThanOrEqual(1);
    expect(items('Which lifecycle node changes does the changelog list?')).toBe(4);
  });

  it("quotes a release page's lists when the question names that release", () => {
    // An outside review: "Which platforms does Humble Hawksbill support?" got one of the six
    // platforms once release pages' lists were read as lists of changes.
    const release: RetrievedChunk = {
      ...chunk(
        'Supported Platforms',
        [
          'Humble Hawksbill is primarily supported on the following platforms:',
          '',
          'Tier 1 platforms:',
          '',
          '* Ubuntu 22.04 (Jammy): amd64 and arm64',
          '* Windows 10 (Visual Studio 2019): amd64',
          '',
          'Tier 2 platforms:',
          '',
          '* RHEL 8: amd64',
          '',
          'Tier 3 platforms:',
          '',
          '* Ubuntu 20.04 (Focal): amd64',
          '* macOS: amd64',
          '* Debian Bullseye: amd64',
        ].join('\n'),
        0.914,
      ),
      source: 'Releases/Release-Humble-Hawksbill.rst',
      title: 'Humble Hawksbill (humble)',
    };
    const changelog: RetrievedChunk = {
      ...chunk(
        'ament_cmake_pytest',
        [
          '* Update forthcoming version in changelog',
          '* Support commands with executable targets (#352)',
        ].join('\n'),
        0.746,
      ),
      source: 'Releases/Galactic-Geochelone-Complete-Changelog.rst',
      title: 'Galactic Geochelone changelog',
    };
    const windows: RetrievedChunk = {
      ...chunk(
        'Windows Tips and Tricks',
        'ROS 2 supports Windows 10 as a Tier 1 platform, which means that all code that goes into the ROS 2 core must support Windows.',
        0.66,
      ),
      source: 'The-ROS2-Project/Contributing/Windows-Tips-and-Tricks.rst',
      title: 'Windows Tips and Tricks',
    };
    const platforms = selectSentences(
      'Which platforms does Humble Hawksbill support?',
      [release, changelog, windows],
      options,
    ).filter((s) => s.listItem && s.chunk === 0);
    expect(platforms.length).toBe(6);
  });

  it('quotes no second list beside the list headed as asked', () => {
    const tradeOffs = chunk(
      'Humanoid-Specific Considerations > Anthropomorphic Design > Design Trade-offs',
      [
        '- **Dexterity vs. Stability**: Balancing manipulation capability with balance',
        '- **Complexity vs. Reliability**: Managing system complexity',
        '- **Cost vs. Capability**: Balancing cost with performance',
        '- **Safety vs. Performance**: Ensuring safe operation',
      ].join('\n'),
      0.8,
    );
    const fidelity = chunk(
      'Challenges and Limitations > Fidelity vs. Performance Trade-offs',
      [
        'Higher fidelity simulations require:',
        '- **More Computational Resources**: Increased processing requirements',
        '- **Longer Simulation Times**: Slower iteration cycles',
        '- **Complex Modeling**: More detailed system representations',
        '- **Calibration Effort**: More precise model tuning',
      ].join('\n'),
      0.64,
    );
    // Before: "Higher fidelity simulations require:" and its four costs, read as more trade-offs.
    const picked = selectSentences(
      'What are the humanoid design trade-offs?',
      [tradeOffs, fidelity],
      options,
    );
    expect(picked.filter((s) => s.chunk === 0)).toHaveLength(4);
    expect(picked.filter((s) => s.chunk === 1)).toHaveLength(1);
    expect(picked.some((s) => s.text.endsWith('require:'))).toBe(false);
  });
});

describe('selectSentences: a bare label with the line under it', () => {
  const VENDORS = chunk(
    'Multiple RMW implementations',
    [
      'Here is a list of inter-vendor communication configurations that are not supported:',
      '',
      '- Fast DDS <-> Connext',
      "   - WString published by Fast DDS can't be received correctly by Connext on macOS",
      '- Connext <-> Cyclone DDS',
      '   - does not support pub/sub communication for WString',
    ].join('\n'),
    0.9,
  );

  it('quotes each pair of vendors with what does not work between them, once', () => {
    // Before: "Fast DDS <-> Connext." alone, as if the two could not talk at all.
    const picked = selectSentences(
      'Which inter-vendor communication configurations are not supported?',
      [VENDORS],
      options,
    );
    expect(picked.filter((s) => s.listItem).map((s) => s.text)).toEqual([
      "Fast DDS <-> Connext — WString published by Fast DDS can't be received correctly by Connext on macOS",
      'Connext <-> Cyclone DDS — does not support pub/sub communication for WString',
    ]);
  });
});

describe('selectSentences: a list cut across two chunks of one section', () => {
  const FIRST = chunk(
    'QoS policies',
    [
      'The base QoS profile currently includes settings for the following policies:',
      '',
      '* History',
      '',
      '  * *Keep last*: only store up to N samples.',
      '',
      '* Liveliness',
    ].join('\n'),
    0.9,
  );
  const NEXT = {
    ...chunk(
      'QoS policies',
      [
        '  * *Automatic*: all of the node’s publishers are alive for another lease duration.',
        '',
        '* Lease Duration',
        '',
        '  * *Duration*: the maximum period of time a publisher has to indicate that it is alive.',
        '',
        'For each of the policies that is not a duration, there is also the option of "system default".',
      ].join('\n'),
      0.9,
    ),
    metadata: { nextPartOnly: true },
  };

  it("quotes the list's items in the section's next part, not the details cut from the last one", () => {
    // Before: History … Liveliness, and never Lease Duration, which is in the second chunk.
    const picked = selectSentences('What are the QoS policies?', [FIRST, NEXT], {
      ...options,
      continuations: new Map([[0, 1]]),
    });
    expect(picked.filter((s) => s.listItem).map((s) => [s.text, s.chunk])).toEqual([
      ['History', 0],
      ['Liveliness', 0],
      ['Lease Duration', 1],
    ]);
  });
});

describe('selectSentences: a table cut across two chunks of one section', () => {
  const header = ['| Name | Description |', '| --- | --- |'];
  const FIRST = chunk(
    'Built-in Display Types',
    [
      'RViz displays these kinds of data:',
      '',
      ...header,
      '| Axes | Displays a set of axes |',
      '| Camera | Displays a camera image |',
    ].join('\n'),
    0.9,
  );
  const NEXT = {
    ...chunk(
      'Built-in Display Types',
      [...header, '| Laser Scan | Displays a laser scan |', '| Wrench | Displays a wrench |'].join(
        '\n',
      ),
      0.9,
    ),
    metadata: { nextPartOnly: true },
  };

  it('quotes the rows in the next part of a table that answers the question', () => {
    // Before: only a list asked for ("What are the …?") went on into the next part; the table
    // answering "How does RViz show data?" stopped at Camera.
    const picked = selectSentences('How do built-in displays show data in RViz?', [FIRST, NEXT], {
      ...options,
      continuations: new Map([[0, 1]]),
    });
    expect(picked.filter((s) => s.listItem).map((s) => [s.text, s.chunk])).toEqual([
      ['Name: Axes · Description: Displays a set of axes', 0],
      ['Name: Camera · Description: Displays a camera image', 0],
      ['Name: Laser Scan · Description: Displays a laser scan', 1],
      ['Name: Wrench · Description: Displays a wrench', 1],
    ]);
  });
});

describe('selectSentences: a sentence introducing a block quote', () => {
  // A colon sentence with no list after it introduced nothing and was dropped, so the licence's
  // "How to Attribute" (its attribution line is a block quote) went uncited.
  const citing = chunk(
    'Citing this guide',
    [
      'If you quote this guide in a report, cite it with the line below:',
      '',
      '> "Field Robotics Notes" by the lab, shared under CC BY 4.0. See the lab page.',
    ].join('\n'),
    0.8,
  );
  const terms = chunk(
    'Terms',
    'You must give appropriate credit and say whether you changed anything.',
    0.8,
  );

  it('quotes the block quote after it, each of its sentences', () => {
    const picked = selectSentences('how should I cite the guide in my report?', [terms, citing], {
      ...options,
      max: 5,
    });
    const texts = picked.map((s) => s.text);
    expect(texts).toContain('If you quote this guide in a report, cite it with the line below:');
    const intro = texts.indexOf(
      'If you quote this guide in a report, cite it with the line below:',
    );
    expect(texts[intro + 1]).toBe('> "Field Robotics Notes" by the lab, shared under CC BY 4.0.');
    expect(texts[intro + 2]).toBe('See the lab page.');
  });

  it('quotes at most eight sentences of a long quotation', () => {
    const long = chunk(
      'Oath',
      [
        'Every club member reads the oath below aloud:',
        '',
        `> ${Array.from({ length: 12 }, (_, i) => `I keep rule ${i + 1} of the club.`).join(' ')}`,
      ].join('\n'),
      0.8,
    );
    const picked = selectSentences('what oath does a club member read?', [long], {
      ...options,
      max: 5,
    });
    const quoted = picked.filter((s) => /^(?:> )?I keep rule/.test(s.text));
    expect(quoted).toHaveLength(8);
    expect(quoted.at(-1)?.text).toBe('I keep rule 8 of the club.');
  });

  it('leaves a colon sentence with neither list nor quote after it unquoted', () => {
    const bare = chunk('Citing', 'Cite the guide with the line below:\n\nThanks for reading.', 0.8);
    const picked = selectSentences('how should I cite the guide?', [bare], options);
    expect(picked.map((s) => s.text)).not.toContain('Cite the guide with the line below:');
  });
});
