import { constants, type Stats } from 'node:fs';
import { mkdir, open, readlink, stat, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, sep } from 'node:path';
import {
  OPEN_WITHOUT_WAITING,
  protectedEntryOf,
  protectedLocationOf,
  specialFileType,
} from '../config/index.js';
import { CohortError } from '../errors/index.js';
import type { Workspace } from './workspace.js';

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
  let real: string | undefined;
  try {
    real = await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    real = undefined; // no /proc (macOS): fall back to comparing the file's identity below
  }
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
  if (info.isFile() && info.nlink > 1) {
    throw new CohortError(
      'forbidden',
      `"${path}" has ${info.nlink} hard links; the file tools only open files with one link, since another name of the same file may be outside the workspace.`,
      { field: 'path' },
    );
  }
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

/** A size in bytes as a person reads it: whole megabytes, or bytes below one. */
function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${bytes} bytes`;
}

/**
 * Writes a workspace file safely: creates missing folders, opens (or creates) the file without
 * following a final symlink and without truncating, verifies the descriptor, and only then
 * replaces the content. Returns whether the file was created.
 *
 * @example
 * await writeInside(workspace, 'notes/todo.md', '# Todo\n');
 */
export async function writeInside(
  workspace: Workspace,
  path: string,
  content: string,
): Promise<{ real: string; created: boolean }> {
  const real = workspace.resolve(path, { mustExist: false });
  refuseProtected(workspace, real, path);
  await mkdir(dirname(real), { recursive: true });
  // Resolved again: the folders now exist, and one of them may have been swapped meanwhile.
  const again = workspace.resolve(path, { mustExist: false });
  refuseProtected(workspace, again, path);
  let created = false;
  let handle: FileHandle;
  try {
    // Read and write: what it held is put back if the new text cannot be written whole.
    handle = await open(
      again,
      constants.O_RDWR | constants.O_NOFOLLOW | OPEN_WITHOUT_WAITING,
    ).catch((error: NodeJS.ErrnoException) =>
      error.code === 'EACCES'
        ? open(again, constants.O_WRONLY | constants.O_NOFOLLOW | OPEN_WITHOUT_WAITING)
        : Promise.reject(error),
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw openError(error as NodeJS.ErrnoException, path);
    handle = await open(
      again,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    ).catch((cause: NodeJS.ErrnoException) => {
      throw openError(cause, path);
    });
    created = true;
  }
  try {
    const { real: opened } = await verifyOpen(handle, workspace, path);
    // The kernel's path of the file actually opened: a folder swapped for a symlink meanwhile.
    if (opened !== undefined && protectedEntryOf(workspace.relative(opened))) {
      if (created) await unlink(opened).catch(() => undefined);
      refuseProtected(workspace, opened, path);
    }
    const previous = created ? undefined : await restorable(handle);
    await handle.truncate(0);
    try {
      await writeAll(handle, Buffer.from(content, 'utf8'));
    } catch (cause) {
      // A full disk wrote part of the text and said nothing (a short write): the file lost its
      // tail and the tool answered ok. Put back what it held, and say what happened.
      const restored = await handle
        .truncate(0)
        .then(() => (previous ? writeAll(handle, previous) : undefined))
        .then(
          () => true,
          () => false,
        );
      const code = (cause as NodeJS.ErrnoException).code ?? String(cause);
      throw new CohortError(
        'internal',
        `Could not write "${path}" (${code}${code === 'ENOSPC' ? ': the disk is full' : ''}): ${
          created
            ? 'the new file was left empty'
            : restored && previous
              ? 'the file was left as it was'
              : 'the file may now hold only part of the text'
        }. Free some space, then try again.`,
        { field: 'path', cause },
      );
    }
  } finally {
    await handle.close();
  }
  return { real: again, created };
}

/** Largest content a write keeps in memory to put back when the new text fails part-way. */
const RESTORE_MAX_BYTES = 32 * 1024 * 1024;

/** What an open file holds, to put back after a failed write; undefined when unreadable or large. */
async function restorable(handle: FileHandle): Promise<Buffer | undefined> {
  try {
    const { size } = await handle.stat();
    if (size > RESTORE_MAX_BYTES) return undefined;
    const buffer = Buffer.alloc(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(buffer, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } catch {
    return undefined; // opened write-only
  }
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
