import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listTableRows, parseRst, rstInlineText } from './rst-parser.js';

const topics = readFileSync(new URL('./fixtures/book/nested/topics.rst', import.meta.url), 'utf8');

describe('parseRst', () => {
  const doc = parseRst(topics);

  it('sets levels by the order adornment styles first appear', () => {
    expect(doc.title).toBe('Topic Basics');
    expect(doc.sections.map((s) => s.headingPath.join(' > '))).toEqual([
      'Topic Basics',
      'Topic Basics > Publishers',
      'Topic Basics > Publishers > Queue depth',
      'Topic Basics > Subscribers',
    ]);
  });

  it('drops directive options, toctrees, targets and redirects but keeps directive content', () => {
    const all = doc.sections.map((s) => s.text).join('\n');
    expect(all).not.toContain(':maxdepth:');
    expect(all).not.toContain(':class:');
    expect(all).not.toContain('Hidden-Page');
    expect(all).not.toContain('Old/Topics');
    expect(all).not.toContain('TopicsLabel');
    expect(all).toContain('Keep message rates modest');
  });

  it('strips roles and literals to their text', () => {
    expect(doc.sections[0]?.text).toContain('see the nodes page and ros2 topic list');
    expect(rstInlineText(':ref:`Target-Only`')).toBe('Target-Only');
    expect(rstInlineText('`Docs <https://x.org>`_')).toBe('Docs');
    expect(rstInlineText('See the `soil guide <../Soil>` page.')).toBe('See the soil guide page.');
    expect(rstInlineText('Water the *roses*\\ : they wilt first.')).toBe(
      'Water the *roses*: they wilt first.',
    );
  });

  it('needs the underline to be at least as long as the title', () => {
    const parsed = parseRst('Title\n=====\n\nLong title here\n---\n\nbody\n');
    expect(parsed.sections.map((s) => s.headingPath)).toEqual([['Title']]);
    expect(parsed.sections[0]?.text).toContain('Long title here');
  });

  it('treats a reused style as the same level', () => {
    const parsed = parseRst('Top\n===\n\nBee\n---\n\nb\n\nSea\n~~~\n\nc\n\nDee\n---\n\nd\n');
    expect(parsed.sections.map((s) => s.headingPath.join('/'))).toEqual([
      'Top',
      'Top/Bee',
      'Top/Bee/Sea',
      'Top/Dee',
    ]);
  });

  it('writes code directives and literal blocks as fenced code, options and markup left out', () => {
    const parsed = parseRst(
      [
        'Record',
        '======',
        '',
        'To record a topic use the command syntax:',
        '',
        '.. code-block:: console',
        '   :linenos:',
        '',
        '    ros2 bag record <topic_name>',
        '',
        'Run the command::',
        '',
        '    ros2 bag record ``/turtle1/cmd_vel``',
        '      --output bag',
        '',
        'Press Ctrl+C to stop.',
        '',
      ].join('\n'),
    );
    expect(parsed.sections[0]?.text).toBe(
      [
        'To record a topic use the command syntax:',
        '',
        '```',
        'ros2 bag record <topic_name>',
        '```',
        '',
        'Run the command:',
        '',
        '```',
        'ros2 bag record ``/turtle1/cmd_vel``',
        '  --output bag',
        '```',
        '',
        'Press Ctrl+C to stop.',
      ].join('\n'),
    );
  });

  it('keeps the content of tabs, each tab led by its label', () => {
    const parsed = parseRst(
      [
        'Start the garden pump',
        '=====================',
        '',
        'Open a terminal and load the pump settings, like so:',
        '',
        '.. tabs::',
        '',
        '   .. group-tab:: Debian',
        '',
        '      .. code-block:: sh',
        '',
        '        source /etc/pump/env.sh',
        '',
        '   .. tab:: Windows',
        '',
        '      Run the batch file from the install folder:',
        '',
        '      .. code-block:: bat',
        '',
        '        call C:\\pump\\env.bat',
        '',
        '   .. code-tab:: py Python API',
        '',
        '        pump.load_settings()',
        '',
        'The pump then starts on its own.',
        '',
      ].join('\n'),
    );
    expect(parsed.sections[0]?.text).toBe(
      [
        'Open a terminal and load the pump settings, like so:',
        '',
        'Debian:',
        '',
        '```',
        'source /etc/pump/env.sh',
        '```',
        '',
        'Windows:',
        '',
        'Run the batch file from the install folder:',
        '',
        '```',
        'call C:\\pump\\env.bat',
        '```',
        '',
        'Python API:',
        '',
        '```',
        'pump.load_settings()',
        '```',
        '',
        'The pump then starts on its own.',
      ].join('\n'),
    );
  });

  it('keeps admonitions, figure captions and conditional content, not their conditions or paths', () => {
    const parsed = parseRst(
      [
        'Watering',
        '========',
        '',
        '.. warning:: Never water at noon in summer.',
        '',
        '.. only:: html and not latex',
        '',
        '   Seedlings need a fine spray.',
        '',
        '.. ifconfig:: edition != "short"',
        '',
        '   .. tip::',
        '',
        '      Collect rain in a barrel.',
        '',
        '.. figure:: ../images/can.png',
        '   :alt: a watering can',
        '',
        '   A can with a long spout reaches the back row.',
        '',
        '.. contents::',
        '   :depth: 2',
        '',
        'Water the roots, not the leaves.',
        '',
      ].join('\n'),
    );
    const text = parsed.sections[0]?.text ?? '';
    for (const kept of [
      'Never water at noon in summer.',
      'Seedlings need a fine spray.',
      'Collect rain in a barrel.',
      'A can with a long spout reaches the back row.',
      'Water the roots, not the leaves.',
    ])
      expect(text).toContain(kept);
    for (const dropped of ['html and not latex', 'edition', 'can.png', ':alt:', 'depth'])
      expect(text).not.toContain(dropped);
  });

  it('reads a lone "::" as the start of a literal block, not a section adornment', () => {
    const parsed = parseRst(
      [
        'Check',
        '=====',
        '',
        'The output lists the beds:',
        '',
        '::',
        '',
        '  BED_A=tomato',
        '  BED_B=bean',
        '',
        'Then water them.',
        '',
      ].join('\n'),
    );
    expect(parsed.sections[0]?.text).toBe(
      [
        'The output lists the beds:',
        '',
        '```',
        'BED_A=tomato',
        'BED_B=bean',
        '```',
        '',
        'Then water them.',
      ].join('\n'),
    );
  });

  it('numbers auto-numbered list items, so they read as steps', () => {
    const parsed = parseRst(
      [
        'Planting',
        '========',
        '',
        '#. Dig a hole.',
        '#. Set the bulb in it,',
        '   tip up.',
        '',
      ].join('\n'),
    );
    expect(parsed.sections[0]?.text).toBe('1. Dig a hole.\n1. Set the bulb in it,\n   tip up.');
  });

  it("reads white space other than ASCII as indentation, as a regex's \\s does", () => {
    // A non-breaking or ideographic space leads the directive's content: it is inside the note,
    // so it loses the note's margin, and a literal block under it is code.
    const parsed = parseRst(
      [
        '.. note::',
        '',
        '\u00a0\u00a0Water at dawn::',
        '',
        '\u3000\u3000\u3000 sprinkle --on',
        '',
      ].join('\n'),
    );
    expect(parsed.sections[0]?.text).toBe('Water at dawn:\n\n```\nsprinkle --on\n```');
  });

  it('finds titles, tables, directives, literal marks and numbered items where their expressions do', () => {
    // The parser asks a line's first characters before running an expression on it: these are
    // the lines where those characters sit after white space, or only look like an adornment.
    const page = [
      '==',
      'Hi',
      '==',
      '',
      '=-=- not an adornment',
      '',
      'Go',
      '--',
      '',
      '\u00a0.. note:: Watch the valves',
      '',
      '   #. Open the tap::\t ',
      '',
      '      tap --open',
      '',
      '\t.. _hidden-target:',
      '',
      'Text ending in a colon pair::x',
      '',
      ' +----+----+',
      ' | a  | b  |',
      ' +====+====+',
      ' | 1  | 2  |',
      ' +----+----+',
      '',
      '\t=====  =====',
      '\tname   value',
      '\t=====  =====',
      '\tgain   2',
      '\t=====  =====',
      '',
      'Then #. stays as written.',
      '',
    ];
    const expected = {
      title: 'Hi',
      sections: [
        { headingPath: ['Hi'], text: '=-=- not an adornment', line: 1 },
        {
          headingPath: ['Hi', 'Go'],
          text: [
            'Watch the valves',
            '',
            '1. Open the tap:',
            '',
            '```',
            'tap --open',
            '```',
            '',
            'Text ending in a colon pair::x',
            '',
            '| a | b |',
            '| --- | --- |',
            '| 1 | 2 |',
            '',
            '| name | value |',
            '| --- | --- |',
            '| gain | 2 |',
            '',
            'Then #. stays as written.',
          ].join('\n'),
          line: 7,
        },
      ],
    };
    expect(parseRst(page.join('\n'))).toEqual(expected);
    // Lines ending in "\r\n" are the same lines.
    expect(parseRst(page.join('\r\n'))).toEqual(expected);
  });

  it('leaves a line with no backslash, backquote or bar as it is', () => {
    expect(rstInlineText('Plain prose: *emphasis*, a_b and <angle> stay.')).toBe(
      'Plain prose: *emphasis*, a_b and <angle> stay.',
    );
    expect(rstInlineText('C:\\dir and a\\ b')).toBe('C:\\dir and ab');
    expect(rstInlineText('the |version| page')).toBe('the version page');
  });
});

describe('a list-table', () => {
  it('is read as a table: its header row above a rule, each row one line of its cells', () => {
    // The ROS 2 docs' "Supported RMW implementations" and release process are list-tables: read
    // as lists, "Product name" was quoted as an implementation and the steps lost their notes.
    const page = [
      'Valves',
      '======',
      '',
      '.. list-table::',
      '   :header-rows: 1',
      '   :widths: 30 70',
      '',
      '   * - Product name',
      '     - Notes',
      '   * - *Drip* valve',
      '     - Waters one plant.',
      '       Slowly, by the drop.',
      '   * - Spray valve',
      '     - Waters a bed | at once.',
      '',
      'After the table.',
    ].join('\n');
    expect(parseRst(page).sections[0]?.text.split('\n')).toEqual([
      '| Product name | Notes |',
      '| --- | --- |',
      '| *Drip* valve | Waters one plant. Slowly, by the drop. |',
      '| Spray valve | Waters a bed / at once. |',
      '',
      'After the table.',
    ]);
  });

  it("has no rule without header rows, and a cell's list is one line", () => {
    expect(
      listTableRows([
        '   * - Step',
        '     - * first',
        '       * second',
        '   * - Next',
        '     - Done',
      ]),
    ).toEqual(['| Step | first second |', '| Next | Done |']);
  });

  it('leaves a cell that is only an image empty', () => {
    // The ROS 2 docs' list of distributions has a logo column: each row was quoted "Logo: jazzy".
    const page = [
      'Distributions',
      '=============',
      '',
      '.. |jazzy| image:: jazzy-small.png',
      '   :alt: Jazzy logo',
      '',
      '.. list-table::',
      '   :header-rows: 1',
      '',
      '   * - Distro',
      '     - Logo',
      '     - EOL date',
      '   * - Jazzy Jalisco',
      '     - |jazzy|',
      '     - May 2029',
    ].join('\n');
    expect(parseRst(page).sections[0]?.text.split('\n')).toEqual([
      '| Distro | Logo | EOL date |',
      '| --- | --- | --- |',
      '| Jazzy Jalisco |  | May 2029 |',
    ]);
  });
});
