import { chmodSync, mkdtempSync, readdirSync, realpathSync, rmSync, type Dirent } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SandboxSettings } from '../config/index.js';
import { isCohortError } from '../errors/index.js';
import { isInsideAny } from './deny-paths.js';
import { findExecutable } from './find-executable.js';
import { createSandbox } from './sandbox.js';
import { diskLimitMessage } from './disk-quota.js';

/** Default time limit of one code run (research spec, TIMEOUT_PYTHON_REPL). */
export const DEFAULT_PYTHON_TIMEOUT_MS = 30_000;
/**
 * What of the host a code run sees: the system's programs and libraries and the few files of
 * `/etc` an interpreter reads, not the user's home, the project or `/etc`'s secrets. Code a model
 * wrote has no business reading host files, and with the whole file system visible it could read
 * anything the user can (and, running as root, `/etc/shadow`).
 */
const SYSTEM_PATHS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
const ETC_FILES = [
  'alternatives',
  'fonts',
  'group',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'localtime',
  'matplotlibrc',
  'mime.types',
  'nsswitch.conf',
  'passwd',
  'timezone',
];
/** Characters of stdout and of stderr a code run keeps. */
const CODE_OUTPUT_KEEP = 64_000;
/** Largest file code may write in its scratch folder, in MB. */
const CODE_FILE_MB = 64;

/** What a code run produced; `status` says whether it finished, failed, hit the limit or was cancelled. */
export interface CodeRunResult {
  status: 'ok' | 'error' | 'timeout' | 'aborted';
  stdout: string;
  stderr: string;
  /** `str()` of the last expression, when there is one. */
  result?: string;
  /** The Python error or the reason the run stopped. */
  error?: string;
  durationMs: number;
}

/** Options of one code run. */
export interface CodeRunOptions {
  /** Wall-time limit (TIMEOUT_PYTHON_REPL); the process is killed when it passes. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** A code runner with the {@link runCode} shape, so research runs and tests can pass fakes. */
export type CodeSandbox = (code: string, options?: CodeRunOptions) => Promise<CodeRunResult>;

/**
 * Runs the code read from stdin as a script; the value of a final expression goes to fd 3, and a
 * traceback keeps only the frames of the code (`<exec>`).
 */
const PYTHON_DRIVER = String.raw`
import ast, os, sys, traceback
source = sys.stdin.read()
result = os.fdopen(3, 'w')
try:
    tree = ast.parse(source, '<exec>')
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    scope = {'__name__': '__main__'}
    exec(compile(tree, '<exec>', 'exec'), scope)
    if last is not None:
        value = eval(compile(last, '<exec>', 'eval'), scope)
        if value is not None:
            result.write(str(value))
except SystemExit:
    raise
except BaseException:
    kind, error, tb = sys.exc_info()
    while tb is not None and tb.tb_frame.f_code.co_filename != '<exec>':
        tb = tb.tb_next
    sys.stderr.write('Traceback (most recent call last):\n' if tb else '')
    sys.stderr.write(''.join(traceback.format_exception(kind, error, tb)[1 if tb else 0:]))
    sys.exit(1)
`;

/**
 * The Python interpreter for code runs: `configured`, else the system's `/usr/bin/python3`, else
 * the first `python3` on PATH; undefined when there is none.
 *
 * @example
 * findPython(undefined); // '/usr/bin/python3'
 */
export function findPython(
  configured: string | undefined,
  env: Record<string, string | undefined> = process.env,
  systemDirs: string[] = ['/usr/bin'],
): string | undefined {
  return findExecutable('python3', { configured, env, first: systemDirs });
}

/**
 * The host paths a code run with `python` sees: {@link SYSTEM_PATHS}, `/etc`'s interpreter files
 * (with Debian's `/etc/python3.x`), and the interpreter's own installation when it lives elsewhere
 * (a virtualenv or pyenv prefix: the folder above its `bin/`, as named and as resolved).
 */
export function codeRunView(python: string): string[] {
  let etc: string[] = [];
  try {
    etc = readdirSync('/etc').filter(
      (name) => name.startsWith('python') || ETC_FILES.includes(name),
    );
  } catch {
    // No /etc to read: the interpreter gets none of it.
  }
  const prefixes = [python, realpathSync(python)].map((path) => dirname(dirname(path)));
  return [
    ...SYSTEM_PATHS,
    ...etc.map((name) => join('/etc', name)),
    ...prefixes.filter((prefix) => prefix !== '/' && !isInsideAny(prefix, SYSTEM_PATHS)),
  ];
}

/**
 * Why code cannot run when no interpreter was found. There is no in-process fallback: Pyodide in
 * the server's own process is what the sandbox replaced (it reached host files and secrets), so
 * without python3 code execution is refused, and the research run goes on without its output.
 */
export function pythonMissingMessage(configured: string | undefined): string {
  return configured
    ? `Code execution is unavailable: sandbox.python is ${configured}, which is not an executable file. Point it at a python3 interpreter or remove it to use the system's python3.`
    : 'Code execution is unavailable: no python3 was found (looked in /usr/bin and on PATH). Install it (Debian/Ubuntu: sudo apt-get install python3) or set sandbox.python to an interpreter.';
}

/**
 * Runs Python code (the research analysis code) in its own process inside the bubblewrap sandbox:
 * a fresh scratch folder is the only writable place and is deleted afterwards, the only host
 * files visible are the system's ({@link codeRunView}: no home, no project), there is no
 * network and no secret in the environment, and the process has hard limits on address space
 * (`settings.codeMemoryMb`), CPU time, file size and process count. The wall-time limit is
 * enforced by killing the sandbox. Never throws; every outcome is a {@link CodeRunResult}.
 *
 * @example
 * const run = await runCode('print(sum(range(10)))', { settings: config.sandbox, timeoutMs: 5_000 });
 * run.stdout; // "45\n"
 */
export async function runCode(
  code: string,
  options: CodeRunOptions & {
    settings: SandboxSettings;
    parentEnv?: Record<string, string | undefined>;
    /** Folders searched for python3 before PATH (tests); `/usr/bin` by default. */
    pythonDirs?: string[];
  },
): Promise<CodeRunResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PYTHON_TIMEOUT_MS;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string): CodeRunResult => ({
    status: 'error',
    stdout: '',
    stderr: '',
    error,
    durationMs: elapsed(),
  });
  const python = findPython(options.settings.python, options.parentEnv, options.pythonDirs);
  if (!python) return failed(pythonMissingMessage(options.settings.python));
  const scratch = mkdtempSync(join(tmpdir(), 'cohort-code-'));
  try {
    const sandbox = createSandbox({
      root: scratch,
      // Code never gets the network, whatever bash is allowed.
      settings: { ...options.settings, allowedHosts: [] },
      noNetwork: true,
      visible: codeRunView(python),
      // A scratch folder cohort never starts in: nothing in it is trusted.
      guardProjectEntries: false,
      ...(options.parentEnv ? { parentEnv: options.parentEnv } : {}),
    });
    const run = await sandbox.run({
      argv: [python, '-I', '-c', PYTHON_DRIVER],
      input: code,
      timeoutMs,
      keepChars: CODE_OUTPUT_KEEP,
      limits: {
        memoryMb: options.settings.codeMemoryMb,
        cpuSeconds: Math.ceil(timeoutMs / 1000) + 1,
        fileMb: CODE_FILE_MB,
      },
      env: { PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1', MPLBACKEND: 'Agg' },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    // A process of the code killed at the memory cap may leave the code itself running on: it
    // reads why, as bash's commands do, instead of a child that vanished without a word.
    const memoryNote = run.memoryExceeded
      ? `\n[killed: the code used more than sandbox.maxMemoryMb (${options.settings.maxMemoryMb} MB) of memory]`
      : '';
    const base = { stdout: run.stdout, stderr: run.stderr + memoryNote, durationMs: elapsed() };
    if (run.spawnError) return failed(`The sandbox could not start: ${run.spawnError}`);
    if (run.aborted) return { ...base, status: 'aborted', error: 'cancelled' };
    if (run.diskExceeded) {
      const error = diskLimitMessage(run.diskExceeded, 'the code', options.settings);
      return { ...base, status: 'error', error };
    }
    if (run.timedOut) {
      return {
        ...base,
        status: 'timeout',
        error: `The code did not finish within ${timeoutMs} ms and was stopped.`,
      };
    }
    if (run.exitCode === 0) {
      return { ...base, status: 'ok', ...(run.extra ? { result: run.extra } : {}) };
    }
    const traceback = run.stderr.includes('Traceback')
      ? run.stderr.slice(run.stderr.indexOf('Traceback'))
      : '';
    return {
      ...base,
      status: 'error',
      error:
        traceback.trim() ||
        (run.memoryExceeded
          ? `The code was killed: it used more than sandbox.maxMemoryMb (${options.settings.maxMemoryMb} MB) of memory.`
          : run.exitCode === null
            ? 'The code was killed (a CPU, memory or process limit).'
            : `The code exited with status ${run.exitCode}.${run.stderr ? ` ${run.stderr.trim().slice(-500)}` : ''}`),
    };
  } catch (error) {
    return failed(isCohortError(error) ? error.message : String(error));
  } finally {
    removeScratch(scratch);
  }
}

/**
 * Removes a code run's scratch folder whatever the code left in it, without throwing: a folder
 * the code made unwritable (`os.chmod('a', 0o500)` over `a/b`) made `rmSync` fail with EACCES for
 * a user who is not root, and that error escaped runCode (which never throws) and failed the
 * research run, the folder left in the temporary folder. Folders are made writable again and the
 * removal tried once more; what still resists (a path past the system's length limit) is left.
 */
function removeScratch(scratch: string): void {
  const remove = () => rmSync(scratch, { recursive: true, force: true, maxRetries: 2 });
  try {
    remove();
    return;
  } catch {
    // a folder the code locked: unlock them all, then once more
  }
  const pending = [scratch];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    let children: Dirent[];
    try {
      chmodSync(dir, 0o700);
      children = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const child of children) if (child.isDirectory()) pending.push(join(dir, child.name));
  }
  try {
    remove();
  } catch {
    // left in the system's temporary folder: nothing of it is read again
  }
}
