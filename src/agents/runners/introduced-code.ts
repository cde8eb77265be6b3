import type { Sentence } from './sentences.js';

/**
 * Most lines of a code block quoted after the sentence that introduces it: a command or a short
 * snippet is the answer; a whole program is not, and cutting one would misquote it.
 */
export const CODE_LINES_QUOTED = 12;

/** "… use the command syntax:", "The following invocation …", "… as follows", "… below". */
const INTRODUCES = /:$|\b(?:the following|as follows|below)\b/i;

/**
 * The code block `sentence` introduces, when it is short enough to quote whole: the block comes
 * right after the sentence (see {@link Sentence.code}) and the sentence says so, by ending with a
 * colon or pointing to what follows ("The following invocation will start the talker …").
 *
 * @example
 * introducedCode({ text: 'Use the command syntax:', code: 'ros2 bag record <topic>', … });
 * // 'ros2 bag record <topic>'
 */
export function introducedCode(sentence: Pick<Sentence, 'text' | 'code'>): string | undefined {
  if (sentence.code === undefined || !INTRODUCES.test(sentence.text)) return undefined;
  return sentence.code.split('\n').length <= CODE_LINES_QUOTED ? sentence.code : undefined;
}

/**
 * `sentence` with the code of the tab the question names, when it introduces a tab set and the
 * question names one of its later tabs and not its first ("How do I source the setup file on
 * Windows?" gets the "Windows:" tab's command, not the first tab's, "Linux:"). A label is named
 * when each of its words is a word of the question, whatever the case.
 *
 * @example
 * tabAsked('… on macOS?', { code: 'source …', codeLabel: 'Linux', tabs: [{ label: 'macOS', code: '. …' }] });
 * // { …, code: '. …', codeLabel: 'macOS' }
 */
export function tabAsked<T extends Pick<Sentence, 'code' | 'codeLabel' | 'tabs'>>(
  query: string,
  sentence: T,
): T {
  if (!sentence.tabs || sentence.codeLabel === undefined) return sentence;
  const words = new Set(query.toLowerCase().split(/[^\p{L}\p{N}_+#]+/u));
  const named = (label: string) =>
    label
      .toLowerCase()
      .split(/[^\p{L}\p{N}_+#]+/u)
      .filter(Boolean)
      .every((word) => words.has(word));
  if (named(sentence.codeLabel)) return sentence;
  const tab = sentence.tabs.find((candidate) => named(candidate.label));
  return tab ? { ...sentence, code: tab.code, codeLabel: tab.label } : sentence;
}

/**
 * True when the question writes the code's command: its first two words ("ros2 bag" of
 * "ros2 bag record <topic_name>"), as a question about that command does.
 *
 * @example
 * namesCommand('What does ros2 bag record?', 'ros2 bag record <topic_name>'); // true
 * namesCommand('What is a component in ROS 2 composition?', 'ros2 component list'); // false
 */
export function namesCommand(query: string, code: string): boolean {
  const words = new Set(query.toLowerCase().split(/[^\w.-]+/));
  const command = (code.trim().split('\n')[0] ?? '').toLowerCase().split(/\s+/).slice(0, 2);
  return command.length === 2 && command.every((word) => words.has(word));
}
