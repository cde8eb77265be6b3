/**
 * Splits a shell command into the simple commands it runs, at `&&`, `||`, `;`, `|`, `&` and
 * newlines outside quotes. Returns undefined when the command holds a substitution (`$(…)`,
 * backticks, `<(…)`, `>(…)`) or an unterminated quote: what it runs cannot be read from its text,
 * so no command-specific allow rule may match it.
 *
 * @example
 * splitShellCommand('npm test && git push'); // ['npm test', 'git push']
 * splitShellCommand('echo $(cat ~/.ssh/id_rsa)'); // undefined
 */
export function splitShellCommand(command: string): string[] | undefined {
  const parts: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index] ?? '';
    const next = command[index + 1] ?? '';
    if (quote) {
      if (char === '\\' && quote === '"') {
        current += char + next;
        index += 1;
        continue;
      }
      if (quote === '"' && (char === '`' || (char === '$' && next === '('))) return undefined;
      if (char === quote) quote = undefined;
      current += char;
      continue;
    }
    if (char === '\\') {
      current += char + next;
      index += 1;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      current += char;
      continue;
    }
    if (
      char === '`' ||
      (char === '$' && next === '(') ||
      ((char === '<' || char === '>') && next === '(')
    )
      return undefined;
    if (char === ';' || char === '\n' || char === '|' || char === '&') {
      // `2>&1` and `&>` are redirections, not separators.
      if (char === '&' && (command[index - 1] === '>' || next === '>')) {
        current += char;
        continue;
      }
      if ((char === '&' || char === '|') && next === char) index += 1;
      if (current.trim()) parts.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  if (quote) return undefined;
  if (current.trim()) parts.push(current.trim());
  return parts;
}
