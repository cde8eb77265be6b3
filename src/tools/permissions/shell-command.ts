/**
 * Text from which bash can run code its words do not show, wherever it stands (quoted, escaped):
 * a substitution (`$(`, a backtick), old arithmetic (`$[`), ANSI-C quoting (`$'\x24('` is `$(`),
 * or a braced expansion other than a plain `${NAME}` (`${x@P}` expands a prompt string, which
 * runs the `$(…)` a `${x:=\$(…)}` beside it put in x; `${a[x]}` and `${!x}` evaluate a subscript
 * held in x, `$(…)` included). Builtins such as `test -v` and `printf -v` evaluate a subscript
 * given in quotes (`test -v 'a[$(…)]'`, or `$'a[\x24(…)]'`). With none of these, the words of
 * each simple command are what it runs.
 */
const HIDDEN_CODE = /\$\(|`|\$\[|\$'|\$\{(?![A-Za-z_]\w*\}|\d+\}|[@*#?$!-]\})/;

/**
 * Splits a shell command into the simple commands it runs, at `&&`, `||`, `;`, `|`, `&` and
 * newlines outside quotes. Returns undefined when the command holds a substitution (`$(…)`,
 * backticks, `<(…)`, `>(…)`), a parenthesis outside quotes (a subshell, a function's body), an
 * expansion that can run one (see {@link HIDDEN_CODE}: `ls
 * ${x:=\$(rm -rf ~)} ${x@P}` ran `rm` under `Bash(ls:*)`, past a `Bash(rm:*)` deny rule) or an
 * unterminated quote: what it runs cannot be read from its text, so no command-specific allow
 * rule may match it.
 *
 * @example
 * splitShellCommand('npm test && git push'); // ['npm test', 'git push']
 * splitShellCommand('echo $(cat ~/.ssh/id_rsa)'); // undefined
 * splitShellCommand('ls ${x:=\\$(id)} ${x@P}'); // undefined
 */
export function splitShellCommand(command: string): string[] | undefined {
  if (HIDDEN_CODE.test(command)) return undefined;
  const parts: string[] = [];
  // Here-documents opened on the current line (`cat <<EOF`), whose bodies follow its newline.
  const heredocs: Heredoc[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  // Whether the next character starts a word: at the start, after an unquoted, unescaped blank or
  // an operator. Only there does `#` start a comment (`a#b` and `\ #` are words).
  let wordStart = true;
  // Where the last `>` bash reads as an operator stands: one escaped or quoted (`\>`, `'>'`) is
  // text, so an `&` after it separates commands (`echo \>& rm -rf ~` runs rm).
  let redirectAt = -1;
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index] ?? '';
    const next = command[index + 1] ?? '';
    const startsWord: boolean = wordStart;
    wordStart = false;
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
    // A backslash before a newline joins the lines (bash removes both): what follows goes on the
    // word before, so `npm test \` + newline + `#"` starts a comment as `npm test #"` does.
    if (char === '\\' && next === '\n') {
      index += 1;
      wordStart = startsWord;
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
    // A comment runs to the end of its line and runs nothing; a quote in it opens nothing, so
    // `npm test #"` + newline + `rm -rf ~` + newline + `"` runs rm, where reading the quote made it
    // one part starting with `npm test`.
    if (char === '#' && startsWord) {
      while (index + 1 < command.length && command[index + 1] !== '\n') index += 1;
      wordStart = true;
      continue;
    }
    if (char === ' ' || char === '\t' || char === '<' || char === '>') wordStart = true;
    if (char === '>') redirectAt = index;
    // A parenthesis outside quotes opens a substitution (`$(`, `<(`, `>(`), a subshell, or the
    // body of a function: `ls () ( rm -rf ~ ); ls` defines `ls` and runs it, each part starting
    // with `ls`.
    // A `)` outside quotes closes a `case` pattern (`case x in *) rm -rf ~;; esac`): the command
    // after it is no part's first word.
    if (char === '`' || char === '(' || char === ')') return undefined;
    // A here-string (`<<< word`) is taken whole: its last two `<` read as a here-document's
    // operator made the lines after it a body, where bash runs them as commands.
    if (char === '<' && next === '<' && command[index + 2] === '<') {
      current += '<<<';
      index += 2;
      wordStart = true;
      continue;
    }
    if (char === '<' && next === '<') {
      const heredoc = readHeredocOperator(command, index);
      if (!heredoc) return undefined;
      heredocs.push(heredoc);
      current += command.slice(index, heredoc.end);
      index = heredoc.end - 1;
      continue;
    }
    if (char === '\n' && heredocs.length > 0) {
      // The lines after the command are the bodies of its here-documents: text, not commands.
      let line = index + 1;
      for (const heredoc of heredocs.splice(0)) {
        const after = skipHeredocBody(command, line, heredoc);
        if (after === undefined) return undefined;
        line = after;
      }
      if (current.trim()) parts.push(current.trim());
      current = '';
      wordStart = true;
      index = line - 1;
      continue;
    }
    if (char === ';' || char === '\n' || char === '|' || char === '&') {
      // `2>&1` and `&>` are redirections, not separators.
      if (char === '&' && (redirectAt === index - 1 || next === '>')) {
        current += char;
        continue;
      }
      if ((char === '&' || char === '|') && next === char) index += 1;
      if (current.trim()) parts.push(current.trim());
      current = '';
      wordStart = true;
      continue;
    }
    current += char;
  }
  if (quote) return undefined;
  if (current.trim()) parts.push(current.trim());
  return parts;
}

/** A here-document operator read from a command: its delimiter and where the operator ends. */
interface Heredoc {
  delimiter: string;
  /** `<<-`: leading tabs are removed from each body line (and the delimiter line). */
  stripTabs: boolean;
  /** Whether any part of the word was quoted (then the body is taken as it is). */
  quoted: boolean;
  end: number;
}

/**
 * Reads the here-document operator at `start` (`<<EOF`, `<<-EOF`, `<< 'EOF'`, `<<"E"OF`): the
 * delimiter is the word after it with its quotes removed, as bash takes it. Undefined when there is
 * no word (bash refuses the command) or a quote in it is not closed.
 */
function readHeredocOperator(command: string, start: number): Heredoc | undefined {
  let index = start + 2;
  const stripTabs = command[index] === '-';
  if (stripTabs) index += 1;
  while (command[index] === ' ' || command[index] === '\t') index += 1;
  let delimiter = '';
  let quoted = false;
  // Bash's blanks are a space, a tab and a newline: a carriage return (CRLF text) is part of the
  // word, so the delimiter of `<<EOF\r` is `EOF\r`, and the line `EOF\r` closes its body.
  while (index < command.length && !/[ \t\n;&|<>()]/.test(command[index] ?? '')) {
    const char = command[index] ?? '';
    // Bash drops a backslash-newline before it reads the word (`<<E\` newline `OF` is EOF), and
    // `$"EOF"` is the delimiter EOF: read as `E` newline `OF` or `$EOF`, no line closed the body.
    if (char === '\\' && command[index + 1] === '\n') {
      index += 2;
      continue;
    }
    if (char === '$' && command[index + 1] === '"') {
      index += 1;
      continue;
    }
    if (char === "'" || char === '"') {
      const close = command.indexOf(char, index + 1);
      if (close < 0) return undefined;
      delimiter += command
        .slice(index + 1, close)
        .replace(char === '"' ? /\\(["\\$`])/g : /$^/, '$1');
      quoted = true;
      index = close + 1;
    } else if (char === '\\') {
      delimiter += command[index + 1] ?? '';
      quoted = true;
      index += 2;
    } else {
      delimiter += char;
      index += 1;
    }
  }
  return delimiter ? { delimiter, stripTabs, quoted, end: index } : undefined;
}

/**
 * Where the command goes on after the body of `heredoc` starting at `start`: past its delimiter
 * line, or at the end when there is none (bash then takes the rest as the body). Undefined when a
 * line of an unquoted body ends in a backslash, which bash joins to the next line before it looks
 * for the delimiter: reading it differently could take a command for body text.
 */
function skipHeredocBody(command: string, start: number, heredoc: Heredoc): number | undefined {
  let line = start;
  while (line < command.length) {
    const newline = command.indexOf('\n', line);
    const end = newline < 0 ? command.length : newline;
    const text = command.slice(line, end);
    if ((heredoc.stripTabs ? text.replace(/^\t+/, '') : text) === heredoc.delimiter) return end + 1;
    if (!heredoc.quoted && text.endsWith('\\')) return undefined;
    line = end + 1;
  }
  return command.length;
}

/** Targets an output redirection may name without writing a file. */
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

/**
 * True when a simple command writes a file by itself: an output redirection (`>`, `>>`, `>|`,
 * `&>`, `2>`) to anything but `/dev/null` or another descriptor (`2>&1`), or git's `--output`
 * option (`git log --output=README.md`). A rule such as `Bash(git log:*)` grants a command that
 * reads; it does not grant writing over the workspace through it.
 *
 * @example
 * writesFiles('git log > README.md'); // true
 * writesFiles('git log 2>&1 >/dev/null'); // false
 */
export function writesFiles(command: string): boolean {
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index] ?? '';
    if (quote) {
      if (char === '\\' && quote === '"') index += 1;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '\\') {
      index += 1;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      continue;
    }
    if (char !== '>') continue;
    let rest = command.slice(index + 1);
    if (rest.startsWith('>') || rest.startsWith('|')) rest = rest.slice(1);
    rest = rest.trimStart();
    // `>&2`, `2>&1`, `2>& 1`, `>&-`: a copy of a descriptor (or its closing), not a file. Any other
    // word after `>&` is a file bash writes stdout and stderr to: `>& out.txt`, with its space,
    // was read as a copy and let `Bash(npm test:*)` write any file.
    if (/^&\s*(?:\d+-?|-)(?=\s|$|[<>])/.test(rest)) continue;
    // The whole word, its quoted and bare pieces joined as bash joins them: `"/dev/null"x` is
    // /dev/nullx, not /dev/null.
    const word = /^(?:"[^"]*"|'[^']*'|[^\s"'<>|;&])*/.exec(rest)?.[0] ?? '';
    const name = word.replace(/["']/g, '');
    if (!HARMLESS_TARGETS.has(name)) return true;
  }
  const words = command.trim().split(/\s+/);
  return words[0] === 'git' && words.some((word) => /^--output(=|$)/.test(word));
}

/**
 * Words before a command that run the command after them: `command rm`, `env FOO=1 rm`,
 * `sudo -n rm`, `nohup nice -n 5 rm`, `timeout 5 rm`.
 */
const COMMAND_WRAPPERS = new Set([
  'builtin',
  'command',
  'doas',
  'env',
  'eval',
  'exec',
  'nice',
  'nohup',
  'stdbuf',
  'sudo',
  'time',
  'timeout',
  'xargs',
  // Reserved words before a command (`then rm`, `do rm`, `! rm`, `{ rm`): the command runs.
  '!',
  '{',
  'coproc',
  'do',
  'elif',
  'else',
  'if',
  'then',
  'until',
  'while',
  // A shell given `-c` runs its next word as a script (`sh -c 'rm -rf ~'`), read here as words.
  'bash',
  'dash',
  'ksh',
  'sh',
  'zsh',
]);

/**
 * A wrapper's options that take the next word as their value (`sudo -u root rm`, `timeout -s KILL
 * 5 rm`): that word is not the command. Only these: an option read here wrongly as taking a word
 * would hide the command after it (`sudo -n rm`). `env -S` is left out on purpose: its word is a
 * command line, read here as the command.
 */
const OPTIONS_WITH_WORD: Readonly<Record<string, ReadonlySet<string>>> = {
  sudo: new Set(['-u', '--user', '-g', '--group', '-h', '--host', '-p', '--prompt', '-C']),
  doas: new Set(['-u', '-C']),
  env: new Set(['-u', '--unset', '-C', '--chdir']),
  exec: new Set(['-a']),
  nice: new Set(['-n', '--adjustment']),
  stdbuf: new Set(['-i', '--input', '-o', '--output', '-e', '--error']),
  time: new Set(['-f', '--format', '-o', '--output']),
  timeout: new Set(['-s', '--signal', '-k', '--kill-after']),
  xargs: new Set(['-a', '--arg-file', '-d', '--delimiter', '-E', '-I', '-L', '-n', '-P', '-s']),
  bash: new Set(['-o', '-O', '+o', '+O', '--rcfile', '--init-file']),
  sh: new Set(['-o', '+o']),
};

/**
 * One simple command as the program it runs reads it, for deny and ask rules: quotes and
 * backslashes dropped (`\rm`, `r''m`, `"rm"` are all rm), variable assignments and wrappers
 * before it dropped with their options and numbers (`env FOO=1`, `sudo -n`, `timeout 5`), and a
 * path command named by its last part (`/bin/rm` is rm). A `Bash(rm:*)` deny rule read only the
 * text as written, so each of those ran rm past it (in `bypassPermissions` mode, without asking).
 * Allow rules still need the command as written.
 *
 * @example
 * plainCommand("sudo -n /bin/r''m -rf x"); // 'rm -rf x'
 */
export function plainCommand(part: string): string {
  const words = part
    // Bash drops a backslash-newline inside double quotes too (`"r\<newline>m"` is rm), and reads
    // `$"rm"` (a translated string) as "rm". Dropped in single quotes as well, where it is text:
    // reading a command there that does not run is the safe mistake for deny and ask rules.
    .replace(/\\\n/g, '')
    .replace(/\$"/g, '"')
    .replace(/["'\\]/g, '')
    .trim()
    .split(/\s+/);
  let start = 0;
  for (;;) {
    const word = words[start] ?? '';
    const name = word.slice(word.lastIndexOf('/') + 1);
    if (/^[A-Za-z_]\w*=/.test(word)) start += 1;
    // `function f { rm …; }`: the body runs when f is called; its first command follows `{`.
    else if (word === 'function') start += 2;
    else if (COMMAND_WRAPPERS.has(name)) {
      const takesWord = OPTIONS_WITH_WORD[name];
      start += 1;
      while (/^(-|\+[oO]$|\d)/.test(words[start] ?? '')) {
        start += takesWord?.has(words[start] ?? '') ? 2 : 1;
      }
    } else break;
  }
  const [command = '', ...rest] = words.slice(start);
  // A name bash expands is kept whole: the last part of `${X:-/bin/rm}` is `rm}`, not the program.
  const name = /[$`]/.test(command) ? command : command.slice(command.lastIndexOf('/') + 1);
  return [name, ...rest].join(' ');
}
