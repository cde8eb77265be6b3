import { constants, type Stats } from 'node:fs';
import { randomBytes } from 'node:crypto';
import {
  lstat,
  mkdir,
  open,
  readdir,
  rename,
  stat,
  unlink,
  type FileHandle,
} from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import {
  OPEN_WITHOUT_WAITING,
  protectedEntryOf,
  protectedLocationOf,
  specialFileType,
} from '../config/index.js';
import { CohortError } from '../errors/index.js';
import type { Workspace } from './workspace.js';
import { kernelPathOf, refuseHardLinked } from './opened-file.js';

const inside = (root: string, path: string) => path === root || path.startsWith(root + sep);

/**
 * Refuses to write a protected workspace entry (`.git`, `cohort.config.json`, `.mcp.json`,
 * `.claude/`, `.cohort/` at any depth, `skills/` at the top; see
 * {@link PROTECTED_PROJECT_ENTRIES}): what they hold runs on the host, or lets tools run without
 * asking, the next time cohort (or git) starts in that folder, so writing there would let a model
 * leave the sandbox. The sandbox mounts them read-only for bash the same way. `real` is a resolved
 * path (symlinks followed) and names compare without letter case, so every spelling of the path
 * and every symlink to it is refused alike.
 */
function refuseProtected(workspace: Workspace, real: string, path: string): void {
  const relativePath = workspace.relative(real);
  const entry = protectedEntryOf(relativePath);
  const location = protectedLocationOf(relativePath);
  if (!entry || !location) return;
  const where = `${relativePath === location ? '' : 'inside '}the workspace's ${location}`;
  throw new CohortError(
    'forbidden',
    `Path "${path}" is ${where}, which cohort's tools do not write: ${entry.why}. Change it yourself if you mean to.`,
    { field: 'path' },
  );
}

/**
 * Refuses to write the file at real path `real` (named `path` by the call) when the permission
 * rules would refuse a call naming it ({@link Workspace.writeRefused}: an `Edit(secret/**)` deny
 * rule reached through a symlink `link` → `secret`), or when it is a protected entry
 * ({@link refuseProtected}).
 */
function refuseWriting(workspace: Workspace, real: string, path: string): void {
  const refused = workspace.writeRefused(real, path);
  if (refused) throw new CohortError('forbidden', refused, { field: 'path' });
  refuseProtected(workspace, real, path);
}

/**
 * Checks an open file: the path the kernel has for the descriptor must be inside the workspace
 * (a folder swapped for a symlink between the check and the open is caught here, after the open,
 * where it can no longer change), and a regular file must have exactly one link (a hard link made
 * to a file outside the workspace has an inside path, but its other name is outside). Returns the
 * kernel's path for the descriptor (undefined without /proc) and the file's stat, read once.
 */
async function verifyOpen(
  handle: FileHandle,
  workspace: Workspace,
  path: string,
): Promise<{ real: string | undefined; info: Stats }> {
  const info = await handle.stat();
  // Opened without waiting (OPEN_WITHOUT_WAITING), so a FIFO got here instead of blocking the open
  // for ever; only regular files (and folders, which read lists) are the tools' to read or write.
  const special = specialFileType(info);
  if (special) {
    throw new CohortError(
      'invalid_input',
      `"${path}" is not a regular file but ${special}: the file tools only read and write regular files.`,
      { field: 'path' },
    );
  }
  // Without /proc (macOS), the file's identity is compared below instead.
  const real = await kernelPathOf(handle.fd);
  if (real !== undefined && !inside(workspace.root, real)) {
    throw new CohortError(
      'forbidden',
      `Path "${path}" leads outside the workspace ${workspace.root}.`,
      {
        field: 'path',
      },
    );
  }
  if (real === undefined) {
    const named = await stat(workspace.resolve(path));
    if (named.dev !== info.dev || named.ino !== info.ino) {
      throw new CohortError('forbidden', `Path "${path}" changed while it was opened; try again.`, {
        field: 'path',
      });
    }
  }
  refuseHardLinked(info, path, 'the file tools only open files', 'the workspace');
  return { real, info };
}

/**
 * Opens a workspace file for reading safely and hands the open descriptor to `use`: resolves the
 * path, opens it without following a final symlink and without waiting (a FIFO), verifies the
 * descriptor (see {@link verifyOpen}) and the read deny rules before a byte is read, and closes it
 * after. For reads that must not load a whole file (the `read` tool streams its lines).
 *
 * @example
 * const size = await withFileInside(workspace, 'big.log', async ({ handle }) => (await handle.stat()).size);
 */
export async function withFileInside<T>(
  workspace: Workspace,
  path: string,
  use: (opened: { real: string; handle: FileHandle; isDirectory: boolean }) => Promise<T>,
): Promise<T> {
  const real = workspace.resolve(path);
  const handle = await open(
    real,
    constants.O_RDONLY | constants.O_NOFOLLOW | OPEN_WITHOUT_WAITING,
  ).catch((error: NodeJS.ErrnoException) => {
    throw openError(error, path);
  });
  try {
    const { real: kernelPath, info } = await verifyOpen(handle, workspace, path);
    const opened = kernelPath ?? real;
    // Checked on the file actually opened: a symlink to `.env` or a pattern that reaches it is
    // refused like the name `.env` itself.
    const rule = workspace.readDenied(opened);
    if (rule)
      throw new CohortError(
        'forbidden',
        `Permission denied: "${path}" is ${workspace.relative(opened)}, denied by the rule ${rule}.`,
        { field: 'path' },
      );
    const refused = workspace.readRefused(opened, path);
    if (refused) throw new CohortError('forbidden', refused, { field: 'path' });
    return await use({ real, handle, isDirectory: info.isDirectory() });
  } finally {
    await handle.close();
  }
}

/**
 * Reads a whole workspace file safely (see {@link withFileInside}), at most `maxBytes` of it: a
 * larger file is `invalid_input` (saying how large, and `tooLarge`'s advice) by the open file's
 * size, before a byte is read; a file that grows while it is read is a `conflict` (try again),
 * never read past the size checked.
 *
 * @example
 * const { real, buffer } = await readInside(workspace, 'src/index.ts', { maxBytes: 32 * 1024 * 1024 });
 */
export async function readInside(
  workspace: Workspace,
  path: string,
  options: { maxBytes: number; tooLarge?: string },
): Promise<{ real: string; buffer: Buffer; isDirectory: boolean }> {
  return withFileInside(workspace, path, async ({ real, handle, isDirectory }) => {
    if (isDirectory) return { real, buffer: Buffer.alloc(0), isDirectory };
    const { size } = await handle.stat();
    if (size > options.maxBytes)
      throw new CohortError(
        'invalid_input',
        `"${path}" is ${megabytes(size)}: ${options.tooLarge ?? `the file tools read at most ${megabytes(options.maxBytes)} of a file whole`}.`,
        { field: 'path' },
      );
    // One byte more than the stat said: a file that grew since is caught, not read on.
    const buffer = Buffer.alloc(size + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) return { real, buffer: buffer.subarray(0, filled), isDirectory };
      filled += bytesRead;
    }
    throw new CohortError('conflict', `"${path}" grew while it was read; try again.`, {
      field: 'path',
    });
  });
}

/**
 * What is wrong with a path the file system refused for its shape, as a user reads it: a name or
 * a path too long, or a part of it that is a file where a folder must be. Undefined for any other
 * failure. These were `internal` errors with Node's own text ("ENAMETOOLONG: name too long,
 * mkdir '/…'").
 */
function pathProblem(error: NodeJS.ErrnoException, path: string): CohortError | undefined {
  const shown = path.length > 120 ? `${path.slice(0, 120)}…` : path;
  if (error.code === 'ENAMETOOLONG')
    return new CohortError(
      'invalid_input',
      `"${shown}" is too long for the file system: each name at most 255 bytes, the whole path at most 4,096.`,
      { field: 'path', cause: error },
    );
  if (error.code === 'ENOTDIR' || (error.code === 'EEXIST' && error.syscall === 'mkdir'))
    return new CohortError(
      'invalid_input',
      `"${shown}": a part of the path is a file, not a folder.`,
      { field: 'path', cause: error },
    );
  return undefined;
}

/** A size in bytes as a person reads it: whole megabytes, or bytes below one. */
function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${bytes} bytes`;
}

/**
 * A moment inside {@link writeInside} where a test stands for a crash (a throw) or a racing
 * process (a swap): called with the temporary file once it is written and flushed, before the
 * file is checked again and the temporary file renamed over it.
 */
export interface WriteSteps {
  afterTemporaryWritten?: (temporary: string) => Promise<void>;
}

/**
 * Writes a workspace file safely and whole: creates missing folders, opens the file's folder
 * without following a symlink and checks where it really is, checks the file there (if any)
 * without following a final symlink (see {@link verifyOpen}), then writes the text to a new
 * temporary file in that same folder, flushes it to disk and renames it over the file. A process
 * killed at any point leaves the old file or the new one, never a part of one (a `kill -9` between
 * truncating and writing left a partial file when the file was overwritten in place). The file
 * keeps its mode (and its owner, where allowed). Returns whether the file was created.
 *
 * @example
 * await writeInside(workspace, 'notes/todo.md', '# Todo\n');
 */
export async function writeInside(
  workspace: Workspace,
  path: string,
  content: string,
  steps: WriteSteps = {},
): Promise<{ real: string; created: boolean }> {
  const real = workspace.resolve(path, { mustExist: false });
  refuseWriting(workspace, real, path);
  await mkdir(dirname(real), { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    throw pathProblem(error, path) ?? error;
  });
  // Resolved again: the folders now exist, and one of them may have been swapped meanwhile.
  const again = workspace.resolve(path, { mustExist: false });
  refuseWriting(workspace, again, path);
  if (again === workspace.root)
    throw new CohortError('invalid_input', `"${path}" is a folder, not a file.`, { field: 'path' });
  const folder = await openFolderInside(workspace, dirname(again), path);
  try {
    const name = basename(again);
    // The kernel's path of the folder actually opened: one swapped for a symlink meanwhile.
    if (folder.real !== undefined) refuseWriting(workspace, join(folder.real, name), path);
    const existing = await checkTarget(workspace, join(folder.path, name), path);
    await replaceWhole(folder, name, Buffer.from(content, 'utf8'), existing, path, steps);
    return { real: again, created: existing === undefined };
  } finally {
    await folder.handle.close();
  }
}

/**
 * A folder opened to write in: `path` names it by its descriptor (`/proc/self/fd/<n>`), so every
 * name made through it lands in the folder checked even if its path is swapped afterwards (the
 * folder's own path where there is no /proc); `real` is the kernel's path of it.
 */
interface OpenFolder {
  handle: FileHandle;
  path: string;
  real: string | undefined;
}

/** Opens the folder `dir` (a resolved path) without following a symlink and checks it is inside. */
async function openFolderInside(
  workspace: Workspace,
  dir: string,
  path: string,
): Promise<OpenFolder> {
  const handle = await open(
    dir,
    constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW,
  ).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ELOOP' || error.code === 'ENOTDIR' || error.code === 'ENOENT'
      ? new CohortError(
          'forbidden',
          `The folder of "${path}" was replaced (by a symlink or a file) while it was written; nothing was written. Try again.`,
          { field: 'path', cause: error },
        )
      : openError(error, path);
  });
  try {
    const real = await kernelPathOf(handle.fd);
    if (real !== undefined) {
      if (!inside(workspace.root, real))
        throw new CohortError(
          'forbidden',
          `Path "${path}" leads outside the workspace ${workspace.root}.`,
          { field: 'path' },
        );
      return { handle, path: `/proc/self/fd/${handle.fd}`, real };
    }
    // No /proc (macOS): the folder opened must be the one the path names now.
    const [opened, named] = await Promise.all([handle.stat(), stat(dir)]);
    if (opened.dev !== named.dev || opened.ino !== named.ino)
      throw new CohortError('forbidden', `Path "${path}" changed while it was opened; try again.`, {
        field: 'path',
      });
    return { handle, path: dir, real: undefined };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Checks the file about to be replaced, by opening it for writing without following a final
 * symlink and without waiting (a FIFO): it must be a regular file the tools may write, inside the
 * workspace, with one link, and writable (a read-only file is refused, as writing in place did).
 * Returns its stat, or undefined when there is no file yet.
 */
async function checkTarget(
  workspace: Workspace,
  target: string,
  path: string,
): Promise<Stats | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(target, constants.O_WRONLY | constants.O_NOFOLLOW | OPEN_WITHOUT_WAITING);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw openError(error as NodeJS.ErrnoException, path);
  }
  try {
    const { real, info } = await verifyOpen(handle, workspace, path);
    if (real !== undefined) refuseWriting(workspace, real, path);
    return info;
  } finally {
    await handle.close();
  }
}

/**
 * Writes `bytes` to a new temporary file in `folder`, flushes it, and renames it over `name`, after
 * checking `name` is still the file checked (or still absent): a rename never follows a symlink,
 * and this one does not replace one put there meanwhile either. The temporary file is removed on
 * any failure, and the file is then left as it was.
 */
async function replaceWhole(
  folder: OpenFolder,
  name: string,
  bytes: Uint8Array,
  existing: Stats | undefined,
  path: string,
  steps: WriteSteps,
): Promise<void> {
  const target = join(folder.path, name);
  const temporary = join(folder.path, temporaryName());
  let made = false;
  try {
    const handle = await open(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      // A new file gets what `open` gives one (the umask applies); a replaced one its old mode.
      existing ? 0o600 : NEW_FILE_MODE,
    );
    made = true;
    try {
      if (existing) await keepOwnerAndMode(handle, existing);
      await writeAll(handle, bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await steps.afterTemporaryWritten?.(temporary);
    await refuseChanged(target, existing, path);
    await rename(temporary, target);
    made = false;
    // Flushes the rename; a file system that cannot flush a folder has still renamed.
    await folder.handle.sync().catch(() => undefined);
    await removeLeftovers(folder.path);
  } catch (cause) {
    if (made) await unlink(temporary).catch(() => undefined);
    if (cause instanceof CohortError) throw cause;
    const code = (cause as NodeJS.ErrnoException).code ?? String(cause);
    const full = code === 'ENOSPC';
    throw new CohortError(
      'internal',
      `Could not write "${path}" (${code}${full ? ': the disk is full' : ''}): ${
        existing ? 'the file was left as it was' : 'no file was created'
      }. ${full ? 'Free some space, then try again.' : 'Try again.'}`,
      { field: 'path', cause },
    );
  }
}

/** Mode of a file `write` creates, before the umask: what `open` and editors give a new file. */
const NEW_FILE_MODE = 0o666;

/** A name no other write uses: hidden, and marked as cohort's, should a crash leave it behind. */
function temporaryName(): string {
  return `.cohort-write-${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
}

/** The temporary files {@link temporaryName} makes, with the process that made each. */
const TEMPORARY_NAME = /^\.cohort-write-(\d+)-[0-9a-f]{12}\.tmp$/;

/** True when a process with this id runs (or runs as another user: it may still be writing). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Removes from a folder just written in the temporary files of writes whose process died before
 * renaming them (a `kill -9` between writing and renaming leaves one): they are cohort's by name,
 * and no running process will rename them. A file of a process that still runs is left alone, and
 * nothing that fails here fails the write that succeeded.
 */
async function removeLeftovers(folder: string): Promise<void> {
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    const pid = TEMPORARY_NAME.exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid || isRunning(Number(pid))) continue;
    await unlink(join(folder, name)).catch(() => undefined);
  }
}

/** Gives the new file the replaced one's owner (where the process may) and mode. */
async function keepOwnerAndMode(handle: FileHandle, existing: Stats): Promise<void> {
  const own = await handle.stat();
  if (own.uid !== existing.uid || own.gid !== existing.gid)
    await handle.chown(existing.uid, existing.gid).catch(() => undefined); // not root: stays ours
  // After chown, which clears set-user-ID and set-group-ID bits.
  await handle.chmod(existing.mode & 0o7777);
}

/** Refuses to rename over `target` when it is no longer the file checked (or no longer absent). */
async function refuseChanged(target: string, existing: Stats | undefined, path: string) {
  const now = await lstat(target).catch((error: NodeJS.ErrnoException) =>
    error.code === 'ENOENT' ? undefined : Promise.reject(error),
  );
  if (existing ? now?.dev === existing.dev && now.ino === existing.ino : now === undefined) return;
  if (now?.isSymbolicLink())
    throw new CohortError(
      'forbidden',
      `"${path}" became a symlink while it was written; the file tools do not follow or replace it, and nothing was written.`,
      { field: 'path' },
    );
  throw new CohortError(
    'conflict',
    `"${path}" was ${existing ? 'replaced or removed' : 'created by something else'} while it was written; nothing was written. Try again.`,
    { field: 'path' },
  );
}

/** Writes every byte from the start of the file: a short write (a full disk) goes on or throws. */
async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, written);
    if (bytesWritten === 0)
      throw Object.assign(new Error('nothing was written'), { code: 'ENOSPC' });
    written += bytesWritten;
  }
}

function openError(error: NodeJS.ErrnoException, path: string): CohortError {
  const problem = pathProblem(error, path);
  if (problem) return problem;
  if (error.code === 'ELOOP')
    return new CohortError(
      'forbidden',
      `Path "${path}" is a symlink; the file tools do not follow it.`,
      {
        field: 'path',
        cause: error,
      },
    );
  if (error.code === 'ENOENT')
    return new CohortError(
      'not_found',
      `No file "${path}" in the workspace. Use glob to find the right path.`,
      {
        field: 'path',
        cause: error,
      },
    );
  // What a FIFO with no reader, or a socket, gives when opened without waiting.
  if (error.code === 'ENXIO')
    return new CohortError(
      'invalid_input',
      `"${path}" is not a regular file (a FIFO or a socket): the file tools only read and write regular files.`,
      { field: 'path', cause: error },
    );
  if (error.code === 'EISDIR')
    return new CohortError('invalid_input', `"${path}" is a folder, not a file.`, {
      field: 'path',
      cause: error,
    });
  return new CohortError('internal', `Could not open "${path}": ${error.message}`, {
    field: 'path',
    cause: error,
  });
}
