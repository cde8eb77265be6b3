import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';

/** Linux's `O_CLOEXEC` as `/proc/<pid>/fdinfo` shows it (octal flags; x86, Arm and most others). */
const O_CLOEXEC = 0o2000000;

/**
 * The descriptors above stderr this process holds open without close-on-exec: ones its parent
 * left open when it started cohort (a shell's pipe, `make`'s jobserver, a supervisor's socket).
 * Node marks every descriptor it opens close-on-exec but leaves inherited ones as it found them,
 * so every child would get them, and bubblewrap closes none. Empty where `/proc` is not readable.
 *
 * @example
 * inheritedDescriptors(); // [251] when started from a shell that leaked its fd 251
 */
export function inheritedDescriptors(): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd <= 2) continue;
    let info: string;
    try {
      info = readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
    } catch {
      continue; // closed meanwhile (the listing's own descriptor is)
    }
    const flags = /^flags:\s*([0-7]+)/m.exec(info)?.[1];
    if (flags !== undefined && (parseInt(flags, 8) & O_CLOEXEC) === 0) found.push(fd);
  }
  return found.sort((a, b) => a - b);
}

/** A child's stdio entry: what `spawn` takes per descriptor. */
type StdioEntry = 'pipe' | 'ignore' | number;

/**
 * `stdio` for `spawn` that puts `/dev/null` in the child at every inherited descriptor (see
 * {@link inheritedDescriptors}) that `stdio` does not set itself, so the child gets none of them.
 * `close` closes the `/dev/null` this opened, once the child is spawned.
 *
 * @example
 * const { stdio, close } = stdioWithoutInherited(['ignore', 'pipe', 'pipe']);
 * try { spawn(file, args, { stdio }); } finally { close(); }
 */
export function stdioWithoutInherited(
  stdio: readonly StdioEntry[],
  inherited: readonly number[] = inheritedDescriptors(),
): { stdio: StdioEntry[]; close: () => void } {
  const covered = inherited.filter((fd) => fd >= stdio.length);
  if (covered.length === 0) return { stdio: [...stdio], close: () => undefined };
  const devNull = openSync('/dev/null', 'r');
  const out: StdioEntry[] = [...stdio];
  for (const fd of covered) {
    while (out.length < fd) out.push('ignore'); // left as it is: not open, or close-on-exec
    out[fd] = devNull;
  }
  return { stdio: out, close: () => closeSync(devNull) };
}
