import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStore, openPgliteDb } from '../../store/index.js';
import { ingest, prepareDocument } from '../ingest/ingest.js';
import {
  boldLeadTerms,
  definedTermIndex,
  headingDefinedTerm,
  openingTitleTerm,
} from './defined-terms.js';
import { buildLexicalIndex } from './lexical-index.js';
import { DEFAULT_TECHNIQUES, createRanker } from './ranker.js';

// A small drone book: one section defines its parts as a bold-lead list, others only mention them.
const chunks = prepareDocument(
  'drones.md',
  [
    '# Drones',
    '## Airframe',
    'A quadcopter drone carries its payload, battery, camera, radio, flight computer, GPS receiver and landing legs on a light frame of carbon tubes and plates, with the main parts:',
    '- **Rotors**: spinning blades that lift the craft',
    '- **Gimbal**: a stabilised camera mount',
    '- **Flight controller**: the board that keeps the drone level',
    '## Noise',
    'Noise grows with rotor speed, so a fast craft is loud near people.',
    '## Real Cameras',
    'Real cameras see motion blur when the drone turns quickly at each run.',
    '## Batteries',
    'Lithium polymer packs give about twenty minutes of flight; store them half charged.',
    '## Rules',
    'Most countries ask pilots to register and to keep the craft in sight below 120 metres.',
    '## Weather',
    'Wind above ten metres per second and rain ground small craft.',
  ].join('\n\n'),
).chunks;

const top = (query: string, definedTerms: boolean) =>
  createRanker(chunks, { techniques: { ...DEFAULT_TECHNIQUES, definedTerms } })
    .rank(query)[0]
    ?.chunk.headingPath.at(-1);

describe('boldLeadTerms', () => {
  it('reads terms defined as bold leads of list items and lines, stemmed', () => {
    expect(
      boldLeadTerms(
        '- **Rotors**: blades\n* **Flight controller** — the board\n1. **GPS** - position\n**Gimbal**: mount',
      ),
    ).toEqual([['rotor'], ['flight', 'control'], ['gp'], ['gimbal']]);
  });
  it('ignores bold words inside a sentence and bold text with no definition after it', () => {
    expect(boldLeadTerms('The **rotor** spins fast.\n- **Note** that it is loud')).toEqual([]);
  });
});

describe('defined-terms technique', () => {
  it('ranks the section defining the asked-about term first, above one that repeats it', () => {
    expect(top('What is a drone rotor?', false)).toBe('Noise');
    expect(top('What is a drone rotor?', true)).toBe('Airframe');
  });
  it('leaves a long question alone when the defined term is only a small part of it', () => {
    const query =
      'Why do real cameras on a drone blur when it turns quickly, and is the gimbal to blame?';
    expect(top(query, true)).toBe(top(query, false));
  });
});

describe('defined-terms bonus in a comparison', () => {
  it('counts a term that is the bulk of one side, though not of the whole question', () => {
    const index = buildLexicalIndex(chunks);
    const terms = new Map([
      ['differ', 1],
      ['rotor', 1],
      ['gimbal', 1],
    ]);
    const defined = definedTermIndex(chunks);
    expect(defined.bonuses(terms, index, undefined).size).toBe(0);
    const sides = [['rotor'], ['gimbal']];
    expect([...defined.bonuses(terms, index, undefined, sides).keys()]).toEqual([0]);
  });
});

describe('headingDefinedTerm: a term a section defines under its own heading', () => {
  const section = (heading: string, text: string) => ({
    headingPath: [heading],
    title: 'Doc',
    text,
  });
  it('reads the heading when the passage opens by making it the subject', () => {
    expect(headingDefinedTerm(section('Topics', 'Topics are one of the three styles.'))).toEqual([
      'topic',
    ]);
    expect(
      headingDefinedTerm(
        section('What is URDF?', 'URDF (Unified Robot Description Format) is the standard format.'),
      ),
    ).toEqual(['urdf']);
    expect(headingDefinedTerm(section('Nodes', '- a list first\n\nA node is a process.'))).toEqual([
      'node',
    ]);
  });
  it('reads nothing when the opening sentence is about something else, or the heading is long', () => {
    expect(
      headingDefinedTerm(section('Topics', 'Run ros2 topic list to see them.')),
    ).toBeUndefined();
    expect(
      headingDefinedTerm(section('Background on the ROS graph today', 'The graph is a network.')),
    ).toBeUndefined();
    // A part of a set ("many of the tf2 tutorials") is what the sentence is about, not tf2.
    expect(
      headingDefinedTerm(section('tf2', 'Many of the tf2 tutorials are available in C++.')),
    ).toBeUndefined();
  });
  it("reads the page's title over its overview, not over its other sections", () => {
    // Reference docs title a page with the term and define it under "Overview": "Tf2 > Overview"
    // opens "tf2 is the transform library…".
    const under = (headingPath: string[], text: string) => ({ headingPath, title: 'Tf2', text });
    expect(
      headingDefinedTerm(under(['Tf2', 'Overview'], 'tf2 is the transform library of ROS 2.')),
    ).toEqual(['tf2']);
    expect(
      headingDefinedTerm(under(['Tf2', 'Supported Platforms'], 'Tf2 is supported on Linux.')),
    ).toBeUndefined();
    expect(
      headingDefinedTerm(under(['Tf2', 'Overview'], 'Frames are what the library tracks.')),
    ).toBeUndefined();
  });
  it('ranks the page that defines a term above tutorial steps that repeat it', () => {
    // Over the textbook and the ROS 2 docs together, "What is a ROS 2 topic?" ranked ten
    // tutorial steps saying "ros2 topic" above the page "Topics" that defines them.
    const docs = [
      ...['list', 'echo', 'info', 'pub', 'hz', 'find'].map(
        (command) =>
          prepareDocument(
            `topics-${command}.rst`,
            `# ros2 topic ${command}\n\nRun ros2 topic ${command} in a new terminal to see what it prints about the running ROS 2 system.`,
          ).chunks,
      ),
      // Other pages of the docs, so "topic" is as rare as in a real corpus.
      ...['lidar', 'battery', 'gazebo', 'urdf', 'colcon', 'rviz', 'tf2', 'qos', 'dds', 'nav2'].map(
        (subject) =>
          prepareDocument(
            `${subject}.rst`,
            `# ${subject}\n\nThe ${subject} page explains how ROS 2 uses ${subject} in a running system.`,
          ).chunks,
      ),
      prepareDocument(
        'about-topics.rst',
        '# Topics\n\nTopics are one of the three primary styles of interfaces provided by ROS 2. Publishers and subscribers that share a name exchange messages, much like a device bus in electrical engineering, and may come and go as they please.',
      ).chunks,
    ].flat();
    const ranked = (definedTerms: boolean) =>
      createRanker(docs, { techniques: { ...DEFAULT_TECHNIQUES, definedTerms } })
        .rank('What is a ROS 2 topic?')
        .map((hit) => hit.chunk.source);
    expect(ranked(false)[0]).not.toBe('about-topics.rst');
    expect(ranked(true)[0]).toBe('about-topics.rst');
  });
});

describe('openingTitleTerm: a short page title names what its opening section is about', () => {
  it('reads the title of at most three words, for the first section only', () => {
    expect(openingTitleTerm({ ord: 0, title: 'Discovery' })).toEqual(['discoveri']);
    expect(openingTitleTerm({ ord: 1, title: 'Discovery' })).toBeUndefined();
    expect(
      openingTitleTerm({ ord: 0, title: 'Using Fast DDS Discovery Server as discovery protocol' }),
    ).toBeUndefined();
  });
  it('ranks the page about the subject above tutorial sections that repeat it', () => {
    // "How does node discovery work in ROS 2?" ranked ten sections of Discovery Server tutorials
    // above the one-section page "Discovery".
    const docs = [
      ...['servers', 'partitions', 'redundancy', 'introspection'].map(
        (part) =>
          prepareDocument(
            `tutorials/discovery-server-${part}.md`,
            `# Using a discovery server for ${part}\n\nThe discovery server tutorial sets discovery ${part} so that nodes discovery traffic shrinks.`,
          ).chunks,
      ),
      ...['lidar', 'battery', 'gazebo', 'urdf', 'colcon', 'rviz', 'qos', 'dds', 'nav2'].map(
        (subject) =>
          prepareDocument(
            `${subject}.md`,
            `# ${subject}\n\nThe ${subject} page explains how ROS 2 nodes use ${subject} in a running system.`,
          ).chunks,
      ),
      prepareDocument(
        'concepts/about-discovery.md',
        '# Discovery\n\nDiscovery of nodes happens automatically through the middleware. When a node starts, it advertises its presence to other nodes on the network with the same domain, and they answer with information about themselves so that connections can be made.',
      ).chunks,
    ].flat();
    const first = (definedTerms: boolean) =>
      createRanker(docs, { techniques: { ...DEFAULT_TECHNIQUES, wordnet: false, definedTerms } })
        .rank('How does node discovery work in ROS 2?', { limit: 1 })
        .map((hit) => hit.chunk.source);
    expect(first(false)).not.toEqual(['concepts/about-discovery.md']);
    expect(first(true)).toEqual(['concepts/about-discovery.md']);
  });
});

const TEXTBOOK = resolve(import.meta.dirname, '../../../../shared/corpus/physical-ai-book');

describe.skipIf(!existsSync(TEXTBOOK))(
  'defined terms over the full textbook (needs ../shared)',
  () => {
    it('ranks chapter 2\'s "**Topics**: Named buses…" among the top passages for "What is a ROS 2 topic?"', async () => {
      const store = await createStore(await openPgliteDb('memory://'));
      await ingest(TEXTBOOK, { store });
      const book = await store.chunks.all();
      await store.close();
      const top5 = createRanker(book)
        .rank('What is a ROS 2 topic?', { limit: 5 })
        .map(({ chunk }) => chunk.text);
      expect(top5.some((text) => text.includes('**Topics**: Named buses'))).toBe(true);
      const without = createRanker(book, {
        techniques: { ...DEFAULT_TECHNIQUES, definedTerms: false },
      })
        .rank('What is a ROS 2 topic?', { limit: 5 })
        .map(({ chunk }) => chunk.text);
      expect(without.some((text) => text.includes('**Topics**: Named buses'))).toBe(false);
    }, 60_000);
  },
);
