import { describe, expect, it } from 'vitest';
import { asksHowTo } from '../../retrieval/index.js';
import { CODE_LINES_QUOTED, introducedCode, namesCommand, tabAsked } from './introduced-code.js';
import { splitSentences } from './sentences.js';

describe('introducedCode', () => {
  const [intro, pointer, plain] = splitSentences(
    [
      'To record a topic use the command syntax:',
      '',
      '```',
      'ros2 bag record <topic_name>',
      '```',
      '',
      'The following invocation starts the talker under another name.',
      '',
      '```',
      'ros2 run demo talker --ros-args -r __node:=my_talker',
      '```',
      '',
      'Recording stops on Ctrl+C.',
      '',
      '```',
      '[INFO] stopped',
      '```',
    ].join('\n'),
  );

  it('is the block right after a sentence that ends with a colon or points to what follows', () => {
    expect(introducedCode(intro!)).toBe('ros2 bag record <topic_name>');
    expect(introducedCode(pointer!)).toBe('ros2 run demo talker --ros-args -r __node:=my_talker');
  });

  it('is nothing after a sentence that does not introduce it, or a block too long to quote', () => {
    expect(plain?.code).toBe('[INFO] stopped');
    expect(introducedCode(plain!)).toBeUndefined();
    const program = Array.from({ length: CODE_LINES_QUOTED + 1 }, (_, i) => `line(${i});`);
    expect(introducedCode({ text: 'The node:', code: program.join('\n') })).toBeUndefined();
  });

  it('is never the block after a heading', () => {
    const [sentence] = splitSentences('Build it:\n\n## Next\n\n```\ncolcon build\n```');
    expect(sentence?.code).toBeUndefined();
  });
});

describe('splitSentences: label lines', () => {
  it('gives the first labelled block of a tab set to the sentence that introduces it', () => {
    const sentences = splitSentences(
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
        '',
        'Windows:',
        '',
        'Only the administrator may run the batch file.',
      ].join('\n'),
    );
    expect(sentences.map((s) => s.text)).toEqual([
      'Load the pump settings in every new shell:',
      'Windows: Only the administrator may run the batch file.',
    ]);
    expect(sentences[0]).toMatchObject({ code: 'source /etc/pump/env.sh', codeLabel: 'Debian' });
    // The set's other tabs stay with it, for a question that names one.
    expect(sentences[0]?.tabs).toEqual([{ label: 'Windows', code: 'call C:\\pump\\env.bat' }]);
  });

  it('ends a tab set at prose or a heading: later labelled code is not its tab', () => {
    const sentences = splitSentences(
      [
        'Load the settings:',
        '',
        'Debian:',
        '',
        '```',
        'source env.sh',
        '```',
        '',
        'Then start the pump.',
        '',
        'Windows:',
        '',
        '```',
        'call env.bat',
        '```',
      ].join('\n'),
    );
    expect(sentences[0]?.tabs).toBeUndefined();
  });
});

describe('tabAsked', () => {
  const sentence = {
    code: 'source env.sh',
    codeLabel: 'Linux',
    tabs: [
      { label: 'macOS', code: '. env.sh' },
      { label: 'Windows PowerShell', code: 'call env.ps1' },
    ],
  };
  it('gives the code of the tab the question names, else the first tab', () => {
    expect(tabAsked('How do I source the setup file on macOS?', sentence)).toMatchObject({
      code: '. env.sh',
      codeLabel: 'macOS',
    });
    expect(tabAsked('How do I do it in Windows PowerShell?', sentence).codeLabel).toBe(
      'Windows PowerShell',
    );
    // Every word of a label: "Windows" alone does not name "Windows PowerShell".
    expect(tabAsked('How do I source it on Windows?', sentence)).toBe(sentence);
    expect(tabAsked('How do I source the setup file?', sentence)).toBe(sentence);
    // Naming the first tab too keeps it.
    expect(tabAsked('On Linux or macOS, how do I source it?', sentence)).toBe(sentence);
  });
});

describe('asksHowTo', () => {
  it('reads "how do I", "how can we", "how to" as asking for a way to do something', () => {
    expect(asksHowTo('How do I record a topic to a bag file?')).toBe(true);
    expect(asksHowTo('how can we remap a node name?')).toBe(true);
    expect(asksHowTo('How to source the setup file?')).toBe(true);
    expect(asksHowTo('How does a topic work?')).toBe(false);
    expect(asksHowTo('How many joints does the H1 have?')).toBe(false);
  });
});

describe('namesCommand', () => {
  it("is true when the question writes the code's command", () => {
    expect(namesCommand('What does ros2 bag record?', 'ros2 bag record <topic_name>')).toBe(true);
    expect(namesCommand('What is a component in ROS 2 composition?', 'ros2 component list')).toBe(
      false,
    );
    expect(namesCommand('What does it print?', 'ls')).toBe(false);
  });
});
