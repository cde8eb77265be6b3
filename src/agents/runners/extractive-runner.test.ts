import { describe, expect, it } from 'vitest';
import { CohortConfig } from '../../config/index.js';
import { createRetrieverFromChunks } from '../../retrieval/index.js';
import { AgentContext, type ChunkRecord, type OffTopicSubject } from '../../schema/index.js';
import { createLogger } from '../../telemetry/index.js';
import { testAgent } from '../../test/test-agent.js';
import { createRagSkill } from '../rag-skill.js';
import { SOCIAL_REPLIES } from '../messages.js';
import { createExtractiveRunner, endSentence, looksLikeCode } from './extractive-runner.js';
import { finalResponse } from './runner.js';

const passage = (id: string, heading: string, text: string, domain = 'module_info') =>
  ({
    id,
    source: `${id}.md`,
    ord: 0,
    title: 'ROS 2 in practice',
    headingPath: ['ROS 2 in practice', heading],
    domain,
    text,
    hash: id,
    metadata: {},
  }) satisfies ChunkRecord;

const BOOK = [
  passage(
    'lifecycle',
    'Lifecycle nodes',
    'A lifecycle node starts unconfigured, is configured into the inactive state, and processes data only once it is activated.',
  ),
  passage(
    'qos',
    'Quality of Service',
    'QoS policies decide whether a message is delivered reliably.',
  ),
  passage(
    'launch',
    'Launch files',
    'A launch file starts several nodes at once with their parameters.',
  ),
  passage(
    'topics',
    'Topics',
    'Nodes publish messages on topics and other nodes subscribe to them.',
  ),
  passage('gpu', 'Workstations', 'A workstation with an RTX GPU runs the simulator.', 'hardware'),
];

// The same book with an opening page at its root, as `intro.md` is.
const opening = (heading: string, text: string) => ({
  ...passage('intro', heading, text, 'general'),
  id: `intro-${heading}`,
  hash: `intro-${heading}`,
});
const BOOK_WITH_INTRO = [
  opening(
    'Welcome',
    'Welcome to ROS 2 in practice. This guide covers nodes, topics, launch files and lifecycle nodes.',
  ),
  opening('Readers', 'It is meant for first-year students and hobbyists who know some Python.'),
  ...BOOK,
];

// The same passages under a docs site's opening page, with a contributing guide that names
// "documentation" and "discuss" in earnest.
const DOCS = [
  opening(
    'Robot Docs',
    'Robot Docs Documentation. This site contains the documentation for the robot framework.',
  ),
  passage(
    'contributing',
    'Contributing',
    'Improving the documentation is a good first contribution; discuss larger changes on the forum.',
  ),
  passage('windows', 'Installing', 'On Windows, install the binary packages with the installer.'),
  ...BOOK,
];

async function ask(
  query: string,
  book: readonly ChunkRecord[] = BOOK,
  extra: { offTopic?: OffTopicSubject; domainFilter?: string } = {},
) {
  // The configured floor, as the assistant passes it: the default `retrieval.minScore`.
  const { retrieval } = CohortConfig.parse({});
  const rag = createRagSkill(createRetrieverFromChunks(book, { minScore: retrieval.minScore }));
  const context = AgentContext.parse({ sessionId: 'anonymous', query, ...extra });
  return finalResponse(
    createExtractiveRunner().run(testAgent('book', { fallback: true }), context, {
      rag,
      logger: createLogger({ level: 'silent' }),
      minScore: retrieval.minScore,
      limit: retrieval.limit,
    }),
  );
}

describe('extractive runner: messages that ask nothing of the book', () => {
  it('replies to a greeting, thanks and "who are you?" without quoting the book', async () => {
    // Before: "hello" got "I couldn't find relevant information about that in the book", and
    // "thank you, that helps" quoted the book's lines on help-seeking.
    const hello = await ask('hello');
    expect(hello.response).toBe(SOCIAL_REPLIES.greeting);
    expect(hello.sources).toEqual([]);
    expect(hello.metadata.social).toBe('greeting');
    const thanks = await ask('thank you, that helps');
    expect(thanks.response).toBe(SOCIAL_REPLIES.thanks);
    expect(thanks.sources).toEqual([]);
    expect((await ask('Who are you?')).response).toBe(SOCIAL_REPLIES.identity);
  });

  it('answers a question that opens with a greeting from the book', async () => {
    const response = await ask('Hi! What does a launch file start?');
    expect(response.metadata.social).toBeUndefined();
    expect(response.sources.length).toBeGreaterThan(0);
  });
});

describe('extractive runner: paraphrased questions are answered from the section retrieval found', () => {
  it('answers a paraphrase whose words the book mostly does not use', async () => {
    // Most of its words are not the book's ("sit idle", "crunching", "switch it on"), so the
    // lifecycle section scores 0.16 of what a full match would; with a floor of 0.2 this was
    // "I couldn't find relevant information".
    const response = await ask(
      'Can my program be configured but sit idle, crunching no data until I switch it on?',
    );
    expect(response.sources.map((source) => source.source)).toContain('lifecycle.md');
    expect(response.response).toContain('processes data only once it is activated');
  });

  it('says so when the best passage matches only loosely, and not when it matches well', async () => {
    // The review's "What keeps a two-legged robot from tipping over?" was answered from QoS's
    // "Keep last message" with nothing to show the match was weak.
    const loose = await ask(
      'Can my program be configured but sit idle, crunching no data until I switch it on?',
    );
    expect(loose.response).toMatch(
      /^These passages match the question only loosely \(best relevance 0\.\d\d\)/,
    );
    expect(loose.metadata.weakMatch).toBe(true);
    const close = await ask('What does a launch file start?');
    expect(close.response).not.toContain('only loosely');
    expect(close.metadata.weakMatch).toBe(false);
  });

  it('still finds nothing for a question none of whose words the book uses', async () => {
    const response = await ask('Qwxz vbnm plokij?');
    expect(response.sources).toEqual([]);
  });

  it('answers a question about the book from its opening page, in the words it asks in', async () => {
    // "written" is no subject to define, and the opening page never repeats it: this answer was
    // "I couldn't find relevant information".
    const audience = await ask('Who is this book written for?', BOOK_WITH_INTRO);
    expect(new Set(audience.sources.map((source) => source.source))).toEqual(new Set(['intro.md']));
    expect(audience.response).toContain('first-year students');
    // "cover" is a word of asking elsewhere ("what does chapter 2 cover?"); here it is the answer's.
    const covers = await ask('What does this book cover?', BOOK_WITH_INTRO);
    expect(covers.response.split('\n')[0]).toContain('This guide covers nodes, topics');
  });

  it('answers a question only about the work from its opening page alone', async () => {
    // Over the textbook, "How long is the class?" quoted "Class Prediction: Assigning semantic
    // labels to pixels" 4th and 5th, under the opening page: found for the word "class".
    const course = [
      opening('Welcome', 'Welcome to ROS 2 in practice, a course in weekly modules.'),
      opening('Learning Path', 'The modules are completed over a 12-13 week period.'),
      passage(
        'segmentation',
        'Pixel-Level Understanding',
        '- Class Prediction: Assigning labels to pixels.',
      ),
      passage('autonomy', 'Phase 3', '- Long-term autonomy capabilities for the class of robots.'),
      ...BOOK,
    ];
    const length = await ask('How long is the class?', course);
    expect(new Set(length.sources.map((source) => source.source))).toEqual(new Set(['intro.md']));
    expect(length.response).toContain('12-13 week period');
    // A question about a topic in the work is answered from the topic's passages, as before.
    const labels = await ask('What does class prediction assign?', course);
    expect(labels.sources.map((source) => source.source)).toContain('segmentation.md');
  });
});

describe('extractive runner: lists asked for', () => {
  const robot = (id: string, name: string, aspect: string, items: string[]) =>
    ({
      ...passage(id, aspect, items.map((item) => `- ${item}`).join('\n'), 'hardware'),
      headingPath: ['Robot Lab', name, aspect],
    }) satisfies ChunkRecord;
  const ROBOTS = [
    robot('h1-specs', 'Unitree H1 Humanoid Robot', 'Specifications Overview', [
      '**Degrees of Freedom**: 25+ joints for full-body control',
      '**Height**: Approximately 1.3 meters',
      '**Weight**: Around 40-45 kg',
      '**Battery Life**: Several hours of operation',
    ]),
    robot('g1-specs', 'Unitree G1 Humanoid Robot', 'Specifications Overview', [
      '**Degrees of Freedom**: Advanced joint configuration',
      '**Design Philosophy**: Cost-effective humanoid research',
    ]),
  ];

  it('quotes the list about the subject whole, under the heading that says what it is about', async () => {
    // Before: "- Weight: Around 40-45 kg. [1]" alone, then one item of the G1's list, neither
    // saying which robot it described.
    const response = await ask('What are the specs of the Unitree H1?', ROBOTS);
    const lines = response.response.split('\n');
    const label = lines.indexOf('Unitree H1 Humanoid Robot › Specifications Overview:');
    expect(label).toBeGreaterThanOrEqual(0);
    expect(lines.slice(label + 1, label + 5)).toEqual([
      '- Degrees of Freedom: 25+ joints for full-body control. [1]',
      '- Height: Approximately 1.3 meters. [1]',
      '- Weight: Around 40-45 kg. [1]',
      '- Battery Life: Several hours of operation. [1]',
    ]);
  });

  it('answers "how tall" with the height, "how heavy" with the weight', async () => {
    // Before, "tall" matched no word of the list, and the first item quoted was the weight.
    const tall = await ask('How tall is the Unitree H1?', ROBOTS);
    expect(tall.response).toContain('- Height: Approximately 1.3 meters. [1]');
    expect(tall.response).not.toContain('Weight');
    const heavy = await ask('How heavy is the Unitree H1?', ROBOTS);
    expect(heavy.response).toContain('- Weight: Around 40-45 kg. [1]');
  });

  it('says so first when asked whether the book covers a thing no quoted passage names whole', async () => {
    // An outside review: "Does the guide cover engine repair?" was answered from "physics engine"
    // and "plan repair" lines as if the book covered it.
    const partly = await ask('Does the book cover launch topics?');
    expect(partly.response.split('\n')[0]).toBe(
      'The book has no passage on "launch topics" as a whole: the passages below name only part of it. The closest passages it has:',
    );
    // A passage names all of it: no such notice.
    const whole = await ask('Does the book cover launch files?');
    expect(whole.response).toContain('A launch file starts several nodes at once');
    expect(whole.response).not.toContain('no passage on');
  });

  it('says the work only mentions a thing it names in passing', async () => {
    // An outside review: "Does this class cover cooking?" quoted the one bullet that names
    // cooking, as if the course taught it.
    const book = [
      ...BOOK,
      passage(
        'uses',
        'Service robots',
        'Service robots help at home with cleaning, cooking, and household chores.',
      ),
    ];
    const cooking = await ask('Does this class cover cooking?', book);
    expect(cooking.response.split('\n')[0]).toBe(
      'The book mentions "cooking" only in passing, in the lines below; it has no section on it.',
    );
    // A heading names it: the book has a section on it.
    const launch = await ask('Does the book cover launch files?', book);
    expect(launch.response).not.toContain('only in passing');
  });

  it('names the work in its notices as its opening page names itself', async () => {
    // Over the ROS 2 docs, 'The book has no passage on "engine repair"' named a book there is none of.
    const docs = [
      {
        ...passage('index', 'ROS 2 Documentation', 'ROS is a set of libraries.', 'general'),
        title: 'ROS 2 Documentation',
      },
      ...BOOK,
    ];
    const partly = await ask('Do the docs cover launch topics?', docs);
    expect(partly.response.split('\n')[0]).toBe(
      'The documentation has no passage on "launch topics" as a whole: the passages below name only part of it. The closest passages it has:',
    );
    const peru = await ask('What is the capital of Peru?', docs, {
      offTopic: { uncovered: ['peru', 'capital'], subject: ['capital', 'peru'], certain: true },
    });
    expect(peru.response).toMatch(/^The documentation does not cover "peru" or "capital"/);
    // An opening page that names itself none of the work's names: the book, as before.
    expect((await ask('Does the book cover launch topics?')).response).toMatch(
      /^The book has no passage/,
    );
  });

  it('answers whom the work credits from its thanks, not the licence', async () => {
    const heading = (id: string, path: string[], text: string) => ({
      ...passage(id, path[0]!, text, 'general'),
      headingPath: path,
    });
    const book = [
      ...BOOK,
      heading(
        'license',
        ['License', 'Terms'],
        'Attribution: you must give appropriate credit and link to the license.',
      ),
      heading(
        'thanks',
        ['Notes', 'Acknowledgments'],
        'We acknowledge the contributions of the volunteers who tested every example.',
      ),
    ];
    const credit = await ask('Who does the book credit?', book);
    expect(credit.response).toContain('We acknowledge the contributions of the volunteers');
    expect(credit.response).not.toContain('appropriate credit');
    // How a reader credits the work is the licence's.
    const reuse = await ask('How do I credit the book if I reuse an example?', book);
    expect(reuse.response).toContain('appropriate credit');
  });

  it('says so first when no quoted line gives the measure asked', async () => {
    // The G1's list gives no weight: its nearest lines were quoted as if they answered.
    const g1 = await ask('How heavy is the Unitree G1?', ROBOTS);
    expect(g1.response.split('\n')[0]).toBe(
      'The book does not state the weight asked about here. The closest passages it has:',
    );
    const h1 = await ask('How heavy is the Unitree H1?', ROBOTS);
    expect(h1.response).not.toContain('does not state');
  });

  it('labels no list whose own heading says what it is about', async () => {
    const response = await ask('How do nodes use topics?');
    expect(response.response).not.toContain('›');
  });
});

describe('extractive runner: what an answer says besides its quotes (outside review, 2026-11-29)', () => {
  const listed = (id: string, headings: string[], items: string[], domain = 'general') =>
    ({
      ...passage(id, headings.at(-1) ?? id, items.map((item) => `- ${item}`).join('\n'), domain),
      headingPath: ['Course', ...headings],
    }) satisfies ChunkRecord;

  it('leads list items quoted without an introduction with their heading, which may hold the answer', async () => {
    // Before: "- Comprehensive understanding of ROS 2 …" alone: the week was only in the heading.
    const book = [
      listed(
        'midterm',
        ['Assessment', 'Mid-term Evaluation (Week 6-7)'],
        ['Comprehensive understanding of ROS 2 and simulation concepts'],
      ),
      ...BOOK,
    ];
    const response = await ask('When is the mid-term evaluation?', book);
    expect(response.response).toContain(
      'Mid-term Evaluation (Week 6-7):\n- Comprehensive understanding of ROS 2 and simulation concepts. [1]',
    );
  });

  it('does not say a cost is missing when a quoted line gives it in money', async () => {
    // Before: "The book does not state the cost asked about here" above "~$0.75-1.00 per hour".
    const book = [
      listed(
        'pricing',
        ['Cloud', 'On-Demand Pricing'],
        ['g5.xlarge: ~$0.75-1.00 per hour', 'g5.12xlarge: ~$36.00-48.00 per hour'],
        'hardware',
      ),
      ...BOOK,
    ];
    const response = await ask('How much does a g5.xlarge instance cost per hour?', book);
    expect(response.response).not.toContain('does not state');
    expect(response.response).toContain('~$0.75-1.00 per hour');
  });

  it('says the book does not cover a name it never uses, written with inner capitals or as a possessive', async () => {
    // Before: the book's lines on fine-tuning and on regulators were quoted as if they answered.
    const book = [
      listed(
        'transfer',
        ['Learning', 'Transfer Learning'],
        ['Transfer Learning: Fine-tuning pre-trained models'],
      ),
      listed(
        'ethics',
        ['Society', 'Policy'],
        ['Regulatory Frameworks: Developing appropriate regulations'],
      ),
      ...BOOK,
    ];
    const lora = await ask('How do I fine-tune a large language model with LoRA?', book, {
      offTopic: { subject: ['fine-tune', 'language', 'model', 'lora'], uncovered: ['lora'] },
    });
    expect(lora.response).toMatch(/^The book does not cover "lora"/);
    const germany = await ask("What are Germany's regulations for self-driving cars?", book, {
      offTopic: { subject: ['germanys', 'regulations', 'cars'], uncovered: ['germanys', 'cars'] },
    });
    expect(germany.response).toMatch(/^The book does not cover/);
  });

  it('says first when no quoted passage names the model a question asks about', async () => {
    // Before: "What is the price of the Unitree G1?" quoted lines on platform costs in general,
    // as if they gave the G1's price.
    const book = [
      listed(
        'costs',
        ['Lab', 'Cost Considerations'],
        [
          'Platform Cost: Base price of the robotic platform',
          'Maintenance: Yearly service contracts',
        ],
        'hardware',
      ),
      listed(
        'g1',
        ['Lab', 'Unitree G1 Humanoid Robot', 'Research Applications'],
        ['Humanoid Robotics: Fundamental humanoid research'],
        'hardware',
      ),
    ];
    const price = await ask('What is the price of the Unitree G1?', book);
    expect(price.response.split('\n')[0]).toBe(
      'The book does not say this about the G1: none of the passages below names it. The closest passages it has:',
    );
    const research = await ask('What research is the Unitree G1 used for?', book);
    expect(research.response).not.toContain('does not say');
  });

  it("does not tell the reader about the agent's part of the book when it searched the whole book", async () => {
    // "Nothing in the glossary part of the book matched" named a part no book has.
    const response = await ask('How do nodes use topics?', BOOK, { domainFilter: 'glossary' });
    expect(response.response).not.toContain('part of the book');
    expect(response.metadata.domainFallback).toBe(true);
  });
});

describe('extractive runner: commands are quoted as code', () => {
  const TOOLS = [
    passage(
      'bag',
      'Record a topic',
      [
        'To record the data published to a topic use the command syntax:',
        '',
        '```',
        'ros2 bag record <topic_name>',
        '```',
        '',
        'Move into the directory you created first, because the bag is saved where you record it.',
      ].join('\n'),
    ),
  ];

  it('writes the command a quoted sentence introduces as a fenced block, without a period', async () => {
    const response = await ask('How do I record a topic to a bag file?', TOOLS);
    expect(response.response).toContain(
      'To record the data published to a topic use the command syntax: [1]\n\n```\nros2 bag record <topic_name>\n```',
    );
  });

  it('writes the label a command stands under before it, never as a sentence', async () => {
    const tabs = passage(
      'pump',
      'Start the pump',
      [
        'Load the pump settings in every new shell:',
        '',
        'Debian:',
        '',
        '```',
        'source /etc/pump/env.sh',
        '```',
        '',
        'Windows:',
        '',
        '```',
        'call C:\\pump\\env.bat',
        '```',
      ].join('\n'),
    );
    const response = await ask('How do I load the pump settings?', [tabs]);
    expect(response.response).toContain(
      'Load the pump settings in every new shell: [1]\n\nDebian:\n```\nsource /etc/pump/env.sh\n```',
    );
    expect(response.response).not.toContain('Windows: [1]');
    // The tab the question names: its label and its command, not the first tab's.
    const windows = await ask('How do I load the pump settings on Windows?', [tabs]);
    expect(windows.response).toContain(
      'Load the pump settings in every new shell: [1]\n\nWindows:\n```\ncall C:\\pump\\env.bat\n```',
    );
    expect(windows.response).not.toContain('source /etc/pump/env.sh');
  });

  it('adds no period after a line that is code', () => {
    expect(looksLikeCode('t.transform.translation.x = atof(transformation[2]);')).toBe(true);
    expect(looksLikeCode('colcon build --symlink-install')).toBe(true);
    expect(
      looksLikeCode('ros2 pkg create my_pkg --build-type ament_python --dependencies rclpy'),
    ).toBe(true);
    expect(looksLikeCode('A lifecycle node starts unconfigured')).toBe(false);
    expect(looksLikeCode('Use the -r flag to remap a name')).toBe(false);
  });

  it('ends a sentence cut at a comma with "…", not ",."', () => {
    // The re-run review found "… as a Python launch file,." where the book went on into code.
    expect(endSentence('The same setup can be written as a Python launch file,')).toBe(
      'The same setup can be written as a Python launch file …',
    );
    expect(endSentence('Nodes exchange messages')).toBe('Nodes exchange messages.');
    expect(endSentence('Use the command syntax:')).toBe('Use the command syntax:');
  });
});

describe('extractive runner over a work that is no book', () => {
  it('says the answer quotes the documentation, and offers no course when asked who it is', async () => {
    const answer = await ask('What does a launch file start?', DOCS);
    expect(answer.response).toMatch(/this answer quotes the documentation directly\./);
    const identity = (await ask('Who are you?', DOCS)).response;
    expect(identity).toMatch(/^I answer questions about the documentation/);
    expect(identity).not.toMatch(/course/);
  });

  it('searches what the documentation is asked to discuss, not "documentation"', async () => {
    // "Does the documentation discuss Windows?" quoted the contributing guide's "improves
    // documentation" and "start a discussion".
    const answer = await ask('Does the documentation discuss Windows?', DOCS);
    expect(answer.sources[0]?.source).toBe('windows.md');
    expect(answer.sources.map((source) => source.source)).not.toContain('contributing.md');
  });
});

describe('extractive runner: a block quote a sentence introduces', () => {
  it('quotes it as a paragraph of its own after the sentence', async () => {
    // The licence's attribution line is a block quote: it was dropped with the sentence
    // introducing it, and quoted inline after it once that sentence was kept.
    const book = [
      passage(
        'citing',
        'Citing this guide',
        'To cite this guide in a report, copy the line below:\n\n> "ROS 2 in practice" by the robotics club, under CC BY 4.0.',
        'general',
      ),
      ...BOOK,
    ];
    const response = await ask('How do I cite this guide in a report?', book);
    expect(response.response).toContain(
      'To cite this guide in a report, copy the line below: [1]\n\n> "ROS 2 in practice" by the robotics club, under CC BY 4.0. [1]',
    );
  });
});
