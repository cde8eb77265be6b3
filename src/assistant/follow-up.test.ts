import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import type { Message } from '../schema/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../test/fake-openai-server.js';
import { resolveFollowUp } from './follow-up.js';
import { modelPartsFor, openAssistant } from './index.js';

const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });

describe('resolveFollowUp', () => {
  const history = [user('What is an IMU?'), assistant('An IMU measures acceleration [1].')];

  it('fills a pronoun with the earlier subject', () => {
    expect(resolveFollowUp('What does it stand for?', history)).toEqual({
      query: 'What does IMU stand for?',
      subject: 'IMU',
    });
    expect(resolveFollowUp('Where is it mounted on the robot?', history).query).toBe(
      'Where is IMU mounted on the robot?',
    );
  });

  it('gives a bare follow-up the earlier subject', () => {
    expect(resolveFollowUp('Why?', history).query).toBe('Why? (about IMU)');
    expect(resolveFollowUp('tell me more', history).subject).toBe('IMU');
  });

  it('does not give a one-character or wordless message the earlier subject', () => {
    // "x" used to read as "x (about IMU)" and was answered about IMU without saying so.
    for (const query of ['x', 'x?', '?', '..', '7', 'é'])
      expect(resolveFollowUp(query, history)).toEqual({ query });
    // A question of function words only is still a follow-up.
    expect(resolveFollowUp('and then?', history).subject).toBe('IMU');
    expect(resolveFollowUp('So?', history).subject).toBe('IMU');
  });

  it('fills a pronoun that is what a wh-question asks about', () => {
    // "hardware" before "it" is what is asked, not what "it" stands for: these were left as asked
    // and answered about hardware in general.
    expect(resolveFollowUp('What hardware does it need?', history).query).toBe(
      'What hardware does IMU need?',
    );
    expect(resolveFollowUp('How much power does it draw?', history).subject).toBe('IMU');
    expect(resolveFollowUp('Which robots can they be mounted on?', history).subject).toBe('IMU');
    // A pronoun after a new subject of its own clause still stands for that subject.
    expect(resolveFollowUp('What happens when the robot says it is lost?', history)).toEqual({
      query: 'What happens when the robot says it is lost?',
    });
  });

  it('fills a pronoun after the words a question asks about it, or in an object place', () => {
    // An outside review: these were left as asked, retrieved without the subject, and "Which
    // numerical methods can solve it?" was routed on "numerical methods" alone.
    const after = (opener: string, query: string) =>
      resolveFollowUp(query, [user(opener), assistant('…')]).query;
    expect(after('What is Nav2?', 'Which path planning algorithms does it use?')).toBe(
      'Which path planning algorithms does Nav2 use?',
    );
    expect(after('What is inverse kinematics?', 'Which numerical methods can solve it?')).toBe(
      'Which numerical methods can solve inverse kinematics?',
    );
    expect(after('What is the capstone project about?', 'What are its success metrics?')).toBe(
      "What are capstone project's success metrics?",
    );
    expect(after('What is the Unitree G1?', 'What sensors are mounted on it?')).toBe(
      'What sensors are mounted on Unitree G1?',
    );
    // "one": a new one of the earlier subject.
    expect(after('What is a digital twin?', 'Which tools does the book use to build one?')).toBe(
      'Which tools does the book use to build digital twin?',
    );
    expect(after('What is Isaac Sim?', 'How do I install it on a workstation?')).toBe(
      'How do I install Isaac Sim on a workstation?',
    );
    expect(after('What is Isaac Sim?', 'Why would I use it?')).toBe('Why would I use Isaac Sim?');
    // A pronoun that may stand for a noun of its own question, or stands for nothing, stays.
    for (const query of [
      'How does the robot pick up a cup without dropping it?',
      'Which sensor should I buy, and how do I calibrate it?',
      'How do I connect a camera to the Jetson and configure it?',
      'What do engineers call it when a robot slips?',
      'How does the robot get people to trust it?',
      'Is the RTX 4090 worth it for 4K gaming?',
      'Can I copy some of it into my blog?',
      'Where does the robot store its map?',
      'What factory jobs could these robots take on?',
    ])
      expect(after('What is Nav2?', query)).toBe(query);
  });

  it('replaces the whole earlier subject, a name with dots or digits or a numbered part', () => {
    // These read "How much does a g5.the g5.4xlarge cost per hour?" and "What is covered in week
    // week 11?": the earlier subject was taken as "2xlarge" and "10".
    const after = (opener: string, query: string) => resolveFollowUp(query, [user(opener)]);
    expect(after('How much does a g5.2xlarge cost per hour?', 'and the g5.4xlarge?')).toEqual({
      query: 'How much does the g5.4xlarge cost per hour?',
      subject: 'g5.2xlarge',
    });
    expect(after('What is covered in week 10?', 'What about week 11?')).toEqual({
      query: 'What is covered in week 11?',
      subject: 'week 10',
    });
    expect(after('What GPU does the g5.xlarge have?', 'and the g6.xlarge?').query).toBe(
      'What GPU does the g6.xlarge have?',
    );
    // A model number replaces a model number, not the longer name beside it.
    expect(after('Is the A10G enough for Isaac Sim?', 'and the L4?').query).toBe(
      'Is the L4 enough for Isaac Sim?',
    );
    expect(after('Does ros2 run on a Raspberry Pi?', 'and on a Jetson?').query).toBe(
      'Does ros2 run on a Jetson?',
    );
    expect(
      after('How much does a g5.2xlarge cost per hour?', 'How much memory does it have?'),
    ).toEqual({
      query: 'How much memory does g5.2xlarge have?',
      subject: 'g5.2xlarge',
    });
  });

  it('asks the earlier question again of a new subject ("and an action?")', () => {
    // These were left as asked: "and an action?" has a word of its own but no question, and was
    // answered with any sentence holding "action".
    const topic = [user('What is a ROS 2 topic?'), assistant('Topics are named buses [1].')];
    expect(resolveFollowUp('and an action?', topic)).toEqual({
      query: 'What is a ROS 2 action?',
      subject: 'ROS 2 topic',
    });
    expect(resolveFollowUp('what about services?', [user('How do ROS 2 topics work?')]).query).toBe(
      'How do ROS 2 services work?',
    );
    expect(resolveFollowUp('ok and LiDAR?', [user('What does IMU stand for?')]).query).toBe(
      'What does LiDAR stand for?',
    );
    // A common word before the old head is part of the old term, not context to keep.
    expect(resolveFollowUp('and an action?', [user('What is a joint limit in URDF?')]).query).toBe(
      'What is an action in URDF?',
    );
    // An earlier question with no subject phrase is asked of the names it wrote.
    expect(
      resolveFollowUp('and the Nano?', [user('How much does a Jetson Orin cost?')]).query,
    ).toBe('How much does the Nano cost?');
    // No new subject: as before.
    expect(resolveFollowUp('and then?', history).query).toBe('and then? (about IMU)');
  });

  it('reads a session the way its user wrote it (an outside review)', () => {
    const session = (lines: string[]) => {
      const turns: Message[] = [];
      return lines.map((line) => {
        const read = resolveFollowUp(line, turns).query;
        turns.push(user(line), assistant('…'));
        return read;
      });
    };
    // "this book" points at the work, not back at the costmap: read "Who is costmap book for?".
    expect(session(['What is a costmap?', 'Who is this book for?'])).toEqual([
      'What is a costmap?',
      'Who is this book for?',
    ]);
    // The earlier question's names, not the whole question, stand for "it": these read "how
    // about the G1? (about How tall is …)" and "and how heavy is How tall is the Unitree H1?".
    expect(
      session(['How tall is the Unitree H1?', 'how about the G1?', 'and how heavy is it?']),
    ).toEqual(['How tall is the Unitree H1?', 'How tall is the G1?', 'and how heavy is G1?']);
    expect(
      session([
        'What is Nav2?',
        'ok and what about Isaac Sim?',
        'Who is this book for?',
        'and how long is it?',
      ]),
    ).toEqual([
      'What is Nav2?',
      'What is Isaac Sim?',
      'Who is this book for?',
      'and how long is this book?',
    ]);
    // An ellipsis after an ellipsis asks the question as the first one resolved it.
    expect(
      session(['What is a ROS 2 topic?', 'and an action?', 'what about the services?']),
    ).toEqual(['What is a ROS 2 topic?', 'What is a ROS 2 action?', 'What is a ROS 2 services?']);
  });

  it('looks past earlier follow-ups to the question that named the subject', () => {
    const longer = [...history, user('What does it stand for?'), assistant('Inertial …')];
    expect(resolveFollowUp('How accurate is it?', longer).query).toBe('How accurate is IMU?');
  });

  it('leaves a new question that only contains a pronoun or starts with how or why as asked', () => {
    // Asked one after another in a session, these read as "... (about IMU)" or had "it" replaced
    // by the earlier subject, and were answered about the IMU.
    for (const query of [
      'How does the gripper know it is holding something fragile?',
      'Why are wheeled robots cheaper to build than legged ones?',
      'Is it possible to run the simulator on a laptop with integrated graphics?',
      'How long is the course?',
      'The arm overshoots its target. What should I tune first?',
      'Which battery lasts longest, and what does that cost per charge?',
    ])
      expect(resolveFollowUp(query, history)).toEqual({ query });
    // A pronoun with nothing before it to stand for still leans on the conversation.
    expect(resolveFollowUp('ok but what does it stand for?', history).query).toBe(
      'ok but what does IMU stand for?',
    );
    expect(resolveFollowUp('how so?', history).subject).toBe('IMU');
  });

  it('takes the subject from an earlier question that asked something of its own', () => {
    // "How do grippers …" used to count as a follow-up itself and was skipped for the IMU.
    const later = [
      ...history,
      user('How do grippers sense how hard they squeeze?'),
      assistant('Force sensors in the fingers [1].'),
    ];
    expect(resolveFollowUp('Why?', later).subject).toBe(
      'How do grippers sense how hard they squeeze',
    );
  });

  it('leaves a question with its own subject, or with no history, as asked', () => {
    expect(resolveFollowUp('What is a gripper?', history)).toEqual({ query: 'What is a gripper?' });
    expect(resolveFollowUp('What does it stand for?', [])).toEqual({
      query: 'What does it stand for?',
    });
    expect(
      resolveFollowUp('Which depth camera does the kit use?', history).subject,
    ).toBeUndefined();
  });
});

describe('follow-ups in a session, end to end on the sample book', () => {
  let server: FakeOpenAI | undefined;
  afterEach(() => server?.close());

  it('answers offline about the earlier subject, and routes the resolved question', async () => {
    const opened = await openAssistant({
      config: loadConfig({ env: { COHORT_DATA_DIR: 'memory://' } }),
    });
    try {
      const sessionId = randomUUID();
      await opened.assistant.ask({ query: 'What is a costmap?', sessionId });
      const reply = await opened.assistant.ask({ query: 'What does it combine?', sessionId });
      expect(reply.metadata.followUp).toEqual({
        subject: 'costmap',
        resolvedQuery: 'What does costmap combine?',
      });
      expect(reply.answer.split('\n---')[0]).toMatch(/costmap/i);
      expect(reply.citations.some((c) => /costmap/i.test(c.text ?? ''))).toBe(true);
      // The router saw the resolved question: alone, "What does it combine?" goes to the fallback.
      expect(opened.assistant.route('What does it combine?').primaryAgent).toBe('book');
      expect(reply.agentUsed).not.toBe('book');
    } finally {
      await opened.close();
    }
  }, 60_000);

  it('answers "x" after a question as "x", not as a question about the earlier subject', async () => {
    const opened = await openAssistant({
      config: loadConfig({ env: { COHORT_DATA_DIR: 'memory://' } }),
    });
    try {
      const sessionId = randomUUID();
      await opened.assistant.ask({ query: 'What is a costmap?', sessionId });
      const reply = await opened.assistant.ask({ query: 'x', sessionId });
      expect(reply.metadata.followUp).toBeUndefined();
      expect(reply.answer.split('\n---')[0]).not.toMatch(/costmap/i);
    } finally {
      await opened.close();
    }
  }, 60_000);

  it('with a model, routes the resolved question and sends the history to the model', async () => {
    server = await startFakeOpenAI({
      chat: [
        { kind: 'tool_call', name: 'search_book_content', arguments: '{"query":"VSLAM"}' },
        { kind: 'text', text: 'VSLAM is visual SLAM [1].' },
        { kind: 'tool_call', name: 'search_book_content', arguments: '{"query":"VSLAM acronym"}' },
        { kind: 'text', text: 'It stands for Visual SLAM [1].' },
      ],
    });
    const config = loadConfig({
      env: { COHORT_DATA_DIR: 'memory://', OPENAI_BASE_URL: server.baseUrl, COHORT_MODEL: 'm' },
    });
    const opened = await openAssistant({ config, modelParts: modelPartsFor });
    try {
      const sessionId = randomUUID();
      await opened.assistant.ask({ query: 'What is VSLAM?', sessionId });
      const reply = await opened.assistant.ask({ query: 'What does it stand for?', sessionId });
      expect(reply.mode).toBe('model');
      expect(reply.agentUsed).toBe('glossary');
      expect(reply.metadata.followUp).toMatchObject({
        resolvedQuery: 'What does VSLAM stand for?',
      });
      const third = server.requests[2]?.body as { messages: { role: string; content: string }[] };
      const contents = third.messages.map((m) => `${m.role}: ${m.content}`);
      expect(contents).toContain('user: What is VSLAM?');
      expect(contents.some((c) => c.startsWith('assistant: VSLAM is visual SLAM [1].'))).toBe(true);
      expect(contents.at(-1)).toBe('user: What does it stand for?');
    } finally {
      await opened.close();
    }
  }, 60_000);
});
