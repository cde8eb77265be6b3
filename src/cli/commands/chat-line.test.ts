import { describe, expect, it } from 'vitest';
import { runCli } from '../../test/run-cli.js';
import { chatHelp, readChatLine, unknownChatCommand } from './chat-line.js';

describe('readChatLine', () => {
  it('reads /help, /exit and /quit as commands, and another /word as an unknown command', () => {
    expect(readChatLine('/help')).toEqual({ kind: 'help' });
    expect(readChatLine('  /? ')).toEqual({ kind: 'help' });
    expect(readChatLine('/HELP me')).toEqual({ kind: 'help' });
    expect(readChatLine('/exit')).toEqual({ kind: 'exit' });
    expect(readChatLine('/quit')).toEqual({ kind: 'exit' });
    expect(readChatLine('/clear')).toEqual({ kind: 'unknown', command: '/clear' });
    expect(readChatLine('/')).toEqual({ kind: 'unknown', command: '/' });
  });

  it('reads everything else as a question, a line starting with a path included', () => {
    expect(readChatLine('  What is a topic? ')).toEqual({
      kind: 'question',
      query: 'What is a topic?',
    });
    expect(readChatLine('/dev/ttyUSB0 is busy, why?')).toEqual({
      kind: 'question',
      query: '/dev/ttyUSB0 is busy, why?',
    });
    expect(readChatLine('   ')).toEqual({ kind: 'empty' });
  });

  it('names every command in the help and in the answer to an unknown one', () => {
    const help = chatHelp('s-1');
    for (const name of ['/help', '/?', '/exit', '/quit']) expect(help).toContain(name);
    expect(help).toContain('remembering this session (s-1)');
    expect(unknownChatCommand('/clear')).toBe(
      'Unknown command /clear: cohort chat knows /help, /exit and /quit. It was not sent to the assistant; type /help for what the chat accepts.\n',
    );
  });
});

describe('cohort chat', () => {
  it('answers /help and an unknown /command itself, sending neither to the assistant', async () => {
    // `/help` went to the assistant as a question and got an answer from the book.
    const { code, stdout, stderr } = await runCli(['chat'], {}, ['/help', '/clear', '/exit']);
    // No turn ran: every answer ends with the line naming the agent that answered.
    expect(stdout).not.toContain('routing confidence');
    expect(stdout).toContain('/help for the commands, /exit to leave');
    expect(stdout).toContain('Commands:\n');
    expect(stdout).toMatch(/\/exit, \/quit +leave the chat/);
    expect(stderr).toContain('Unknown command /clear: cohort chat knows /help, /exit and /quit.');
    // Piped, an unknown command fails the run as a failed turn does.
    expect(code).toBe(1);
  });
});
