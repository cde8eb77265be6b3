/**
 * What a line typed into `cohort chat` is: a question for the assistant, or one of the chat's own
 * commands. A line whose first word is `/name` is a command, never a question: `/help` was sent
 * to the model and answered as a question about the book. A line that starts with a path
 * (`/dev/ttyUSB0 is busy, why?`) is still a question.
 */
export type ChatLine =
  | { kind: 'empty' }
  | { kind: 'question'; query: string }
  | { kind: 'help' }
  | { kind: 'exit' }
  | { kind: 'unknown'; command: string };

/** The chat's commands, as `/help` lists them. */
export const CHAT_COMMANDS: ReadonlyArray<{ names: readonly string[]; does: string }> = [
  { names: ['/help', '/?'], does: 'list what the chat accepts' },
  { names: ['/exit', '/quit'], does: 'leave the chat (so does the end of input)' },
];

/** A first word that names a command: a slash, then a name with no further slash. */
const COMMAND_WORD = /^\/[^\s/]*$/;

/**
 * Reads one input line of `cohort chat`.
 *
 * @example
 * readChatLine('/help'); // { kind: 'help' }
 * readChatLine('What is a topic?'); // { kind: 'question', query: 'What is a topic?' }
 */
export function readChatLine(line: string): ChatLine {
  const text = line.trim();
  if (text === '') return { kind: 'empty' };
  const first = text.split(/\s/, 1)[0] ?? '';
  if (!COMMAND_WORD.test(first)) return { kind: 'question', query: text };
  const command = first.toLowerCase();
  if (command === '/help' || command === '/?') return { kind: 'help' };
  if (command === '/exit' || command === '/quit') return { kind: 'exit' };
  return { kind: 'unknown', command: first };
}

/**
 * What `/help` prints: how to ask, and every command.
 *
 * @example
 * io.stdout(chatHelp(sessionId));
 */
export function chatHelp(sessionId: string): string {
  const width = Math.max(...CHAT_COMMANDS.map(({ names }) => names.join(', ').length));
  return [
    `Type a question and press Enter: the assistant answers from the book, remembering this session (${sessionId}).`,
    'Commands:',
    ...CHAT_COMMANDS.map(({ names, does }) => `  ${names.join(', ').padEnd(width)}  ${does}`),
    '',
  ].join('\n');
}

/**
 * What an unknown `/command` gets instead of an answer: it is not sent to the assistant.
 *
 * @example
 * unknownChatCommand('/clear'); // 'Unknown command /clear: cohort chat knows /help, /exit and /quit. …'
 */
export function unknownChatCommand(command: string): string {
  const names = CHAT_COMMANDS.flatMap(({ names }) => names.filter((name) => name !== '/?'));
  const known = `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
  return `Unknown command ${command}: cohort chat knows ${known}. It was not sent to the assistant; type /help for what the chat accepts.\n`;
}
