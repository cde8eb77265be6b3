import { describe, expect, it } from 'vitest';
import { analyze, QUERY_STOPWORDS } from '../../retrieval/index.js';
import { passageSentences } from './passage-sentences.js';
import { headingIsQuestion, itemsAsked, listRun, outerItems } from './whole-list.js';

const sentencesOf = passageSentences((text) => analyze(text));
const texts = (run: { text: string }[] | undefined) => run?.map((sentence) => sentence.text);

describe("listRun: a table's rows", () => {
  it('are a run as a list is, apart from the bullet items beside them', () => {
    const passage = sentencesOf(
      [
        '| Product name | Status |',
        '| --- | --- |',
        '| Drip Valve | Full support |',
        '| Spray Valve | Community support |',
        '- **Hose**: not in the table',
      ].join('\n'),
    );
    expect(texts(listRun(passage, 0))).toEqual([
      'Product name: Drip Valve · Status: Full support',
      'Product name: Spray Valve · Status: Community support',
    ]);
  });
});

describe('listRun: the items standing with a quoted one', () => {
  const passage = sentencesOf(
    [
      'Grippers come in several kinds.',
      '',
      '- **Parallel**: Two fingers',
      '- **Suction**: Vacuum cups',
      '- **Soft**: Compliant fingers',
      '',
      'Each needs its own driver.',
      '',
      '- **Driver A**: Serial',
    ].join('\n'),
  );

  it('is the run of bullet items around it, up to the prose', () => {
    expect(texts(listRun(passage, 2))).toEqual([
      'Parallel: Two fingers',
      'Suction: Vacuum cups',
      'Soft: Compliant fingers',
    ]);
  });

  it('is nothing for prose or a lone item', () => {
    expect(listRun(passage, 0)).toBeUndefined();
    expect(listRun(passage, 5)).toBeUndefined();
  });

  it('leaves out an item that introduces items of its own', () => {
    const nested = sentencesOf('- Launches a node.\n- Differences:\n  - Renamed attributes.');
    expect(texts(listRun(nested, 0))).toEqual(['Launches a node.', 'Renamed attributes.']);
  });
});

describe("headingIsQuestion: a passage's own heading in the question's words", () => {
  const asked = (query: string) => new Set(analyze(query, QUERY_STOPWORDS));
  const terms = (text: string) => analyze(text);

  it('holds for a heading of two or more words, every one asked', () => {
    const query = asked('How does visual servoing guide a robot arm?');
    expect(headingIsQuestion('Arm Control > Visual Servoing', terms, query)).toBe(true);
    expect(headingIsQuestion('Arm Control > Force Servoing', terms, query)).toBe(false);
    expect(headingIsQuestion('Robots > Arm', terms, query)).toBe(false);
  });
});

describe('outerItems: a nested list as the items it lists', () => {
  it("keeps the outer items, not the details indented under them (ROS 2 docs' QoS policies)", () => {
    const policies = sentencesOf(
      [
        '* History',
        '',
        '  * *Keep last*: only store up to N samples.',
        '  * *Keep all*: store all samples.',
        '',
        '* Depth',
        '',
        '  * *Queue size*: only honored if the history policy was set to keep last.',
        '',
        '* Reliability',
      ].join('\n'),
    );
    expect(texts(outerItems(policies))).toEqual(['History', 'Depth', 'Reliability']);
    // Quoted from a nested item, the list is still its outer items.
    expect(texts(listRun(policies, 1))).toEqual(['History', 'Depth', 'Reliability']);
  });

  it('keeps the items an outer item introduces', () => {
    const nested = sentencesOf('- Launches a node.\n- Differences:\n  - Renamed attributes.');
    expect(texts(outerItems(nested))).toEqual([
      'Launches a node.',
      'Differences:',
      'Renamed attributes.',
    ]);
  });
});

describe('itemsAsked: the items of a list a question asks for', () => {
  const policies = sentencesOf(
    [
      '* History',
      '',
      '  * *Keep last*: only store up to N samples.',
      '  * *Keep all*: store all samples.',
      '',
      '* Reliability',
      '',
      '  * *Best effort*: may lose samples.',
      '  * *Reliable*: guarantee that samples are delivered.',
      '',
      '* Deadline',
    ].join('\n'),
  );
  const terms = (text: string) => analyze(text);
  const ask = (query: string) =>
    texts(itemsAsked(policies, new Set(analyze(query, QUERY_STOPWORDS)), terms));

  it('are the items nested under the one outer item the question names', () => {
    // Before: the list's first items, History's settings among them.
    expect(ask('What are the QoS reliability options?')).toEqual([
      'Best effort: may lose samples.',
      'Reliable: guarantee that samples are delivered.',
    ]);
  });

  it('are the outer items otherwise, or when the named item has none', () => {
    expect(ask('What are the QoS policies?')).toEqual(['History', 'Reliability', 'Deadline']);
    expect(ask('What are the deadline options?')).toEqual(['History', 'Reliability', 'Deadline']);
    expect(ask('Compare history and reliability')).toEqual(['History', 'Reliability', 'Deadline']);
  });

  it('are the outer items when the named item has one line under it, its description', () => {
    // An outside review: only the line under "ament_cmake" was quoted, no package named.
    const packages = sentencesOf(
      [
        '* ament_cmake',
        '',
        '  * aggregates all other packages in this repository, users need only to depend on this.',
        '',
        '* ament_cmake_auto',
        '',
        '  * provides convenience CMake functions which automatically handle a lot of the tedious parts of writing a package.',
        '',
        '* ament_cmake_core',
        '',
        '  * provides the core functionality of the CMake build system for ament packages.',
      ].join('\n'),
    );
    const asked = new Set(
      analyze('What packages are in the ament_cmake repository?', QUERY_STOPWORDS),
    );
    // Each package with its line: a bare name says nothing of what the package does.
    expect(texts(itemsAsked(packages, asked, terms))).toEqual([
      'ament_cmake — aggregates all other packages in this repository, users need only to depend on this.',
      'ament_cmake_auto — provides convenience CMake functions which automatically handle a lot of the tedious parts of writing a package.',
      'ament_cmake_core — provides the core functionality of the CMake build system for ament packages.',
    ]);
  });

  it('gives a bare label the first sentence under it, not a labelled option', () => {
    // "Fast DDS <-> Connext." quoted alone read as no communication at all between them.
    const vendors = sentencesOf(
      [
        '- Fast DDS <-> Connext',
        "   - WString published by Fast DDS can't be received correctly by Connext on macOS. More below.",
        '- Connext <-> Cyclone DDS',
        '   - does not support pub/sub communication for WString',
        '- Zenoh',
      ].join('\n'),
    );
    expect(texts(itemsAsked(vendors, new Set(['vendor']), terms))).toEqual([
      "Fast DDS <-> Connext — WString published by Fast DDS can't be received correctly by Connext on macOS.",
      'Connext <-> Cyclone DDS — does not support pub/sub communication for WString',
      'Zenoh',
    ]);
    const policies = sentencesOf(
      ['* History', '', '  * *Keep last*: only store up to N samples', '', '* Depth'].join('\n'),
    );
    expect(texts(itemsAsked(policies, new Set(['polici']), terms))).toEqual(['History', 'Depth']);
  });
});
