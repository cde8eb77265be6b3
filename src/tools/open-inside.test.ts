import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CohortError } from '../errors/index.js';
import { createEditTool } from './edit-tool.js';
import { writeInside } from './open-inside.js';
import { createWorkspace } from './workspace.js';
import { createWriteTool } from './write-tool.js';

const base = mkdtempSync(join(tmpdir(), 'cohort-atomic-'));
const root = join(base, 'project');
mkdirSync(join(root, 'src'), { recursive: true });
mkdirSync(join(base, 'outside'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const workspace = createWorkspace(root);

/** What a write left: the error it threw (or undefined). */
const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('writeInside replaces a file whole (a temporary file renamed over it)', () => {
  it('leaves the file as it was, and no temporary file, when it fails after the text is written', async () => {
    // Written in place, a kill -9 between truncating and writing left a partial file.
    const file = join(root, 'src', 'keep.ts');
    writeFileSync(file, 'export const before = 1;\n');
    const seen: string[] = [];
    const failed = await failureOf(
      writeInside(workspace, 'src/keep.ts', 'export const after = 2;\n', {
        afterTemporaryWritten: async (temporary) => {
          // The last moment before the rename: the new text whole in the temporary file, the old
          // text whole in the file. A process killed here leaves the old file.
          seen.push(readFileSync(temporary, 'utf8'), readFileSync(file, 'utf8'));
          throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
        },
      }),
    );
    expect(seen).toEqual(['export const after = 2;\n', 'export const before = 1;\n']);
    expect(failed).toBeInstanceOf(CohortError);
    expect(failed).toMatchObject({
      code: 'internal',
      message: 'Could not write "src/keep.ts" (EIO): the file was left as it was. Try again.',
    });
    expect(readFileSync(file, 'utf8')).toBe('export const before = 1;\n');
    expect(readdirSync(join(root, 'src'))).toEqual(['keep.ts']);

    // A new file: nothing is created, and nothing left behind.
    const fresh = await failureOf(
      writeInside(workspace, 'src/new.ts', 'x', {
        afterTemporaryWritten: () => Promise.reject(new Error('crash')),
      }),
    );
    expect(fresh).toMatchObject({ message: expect.stringContaining('no file was created') });
    expect(readdirSync(join(root, 'src'))).toEqual(['keep.ts']);
    rmSync(file);
    // The workspace itself is a folder, as any other folder is.
    for (const path of ['.', 'src'])
      expect(await failureOf(writeInside(workspace, path, 'x'))).toMatchObject({
        code: 'invalid_input',
        message: `"${path}" is a folder, not a file.`,
      });
  });

  it('removes what a write of a dead process left behind, and nothing else', async () => {
    // A workspace of its own: the other tests list this file's workspace.
    const own = join(base, 'leftovers-project');
    const dir = join(own, 'leftovers');
    mkdirSync(dir, { recursive: true });
    // A process that has ended: its id names no running process (a kill -9 between writing and
    // renaming leaves such a file).
    const dead = spawnSync('true').pid;
    const names = [
      `.cohort-write-${dead}-0123456789ab.tmp`,
      // This process's own (a write of it may be under way), one of a running process, and
      // names that are not cohort's.
      `.cohort-write-${process.pid}-0123456789ab.tmp`,
      '.cohort-write-1-0123456789ab.tmp',
      '.cohort-write-notes.tmp',
      'cohort-write-1-0123456789ab.tmp',
    ];
    for (const name of names) writeFileSync(join(dir, name), 'x');
    await writeInside(createWorkspace(own), 'leftovers/file.txt', 'text');
    expect(readdirSync(dir).sort()).toEqual([...names.slice(1), 'file.txt'].sort());
  });

  it('write and edit keep the mode of the file they replace', async () => {
    for (const [name, mode] of [
      ['run.sh', 0o755],
      ['secret.txt', 0o600],
      ['shared.txt', 0o664],
    ] as const) {
      const file = join(root, name);
      writeFileSync(file, 'old\n');
      chmodSync(file, mode);
      const inode = statSync(file).ino;
      expect(
        await createWriteTool(workspace).execute({ path: name, content: 'new\n' }, {}),
      ).toMatchObject({ ok: true, created: false });
      // Replaced, not rewritten in place: a new file took the name.
      expect(statSync(file).ino).not.toBe(inode);
      expect(
        await createEditTool(workspace).execute(
          { path: name, oldText: 'new', newText: 'edited' },
          {},
        ),
      ).toMatchObject({ ok: true });
      expect(readFileSync(file, 'utf8')).toBe('edited\n');
      expect(statSync(file).mode & 0o7777, name).toBe(mode);
      rmSync(file);
    }
    expect(readdirSync(root)).toEqual(['src']);
  });

  it('a file swapped for a symlink after its check is neither followed nor replaced', async () => {
    const file = join(root, 'target.txt');
    writeFileSync(file, 'inside\n');
    writeFileSync(join(base, 'outside', 'target.txt'), 'OUTSIDE\n');
    const failed = await failureOf(
      writeInside(workspace, 'target.txt', 'x', {
        afterTemporaryWritten: async () => {
          renameSync(file, join(root, 'moved.txt'));
          symlinkSync(join(base, 'outside', 'target.txt'), file);
        },
      }),
    );
    expect(failed).toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('"target.txt" became a symlink while it was written'),
    });
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(base, 'outside', 'target.txt'), 'utf8')).toBe('OUTSIDE\n');
    expect(readdirSync(root).sort()).toEqual(['moved.txt', 'src', 'target.txt']);
    rmSync(file);
    rmSync(join(root, 'moved.txt'));

    // A file made meanwhile where there was none is not replaced either.
    const raced = await failureOf(
      writeInside(workspace, 'raced.txt', 'mine', {
        afterTemporaryWritten: async () => writeFileSync(join(root, 'raced.txt'), 'theirs'),
      }),
    );
    expect(raced).toMatchObject({ code: 'conflict' });
    expect(readFileSync(join(root, 'raced.txt'), 'utf8')).toBe('theirs');
    rmSync(join(root, 'raced.txt'));
    expect(readdirSync(root)).toEqual(['src']);
  });

  it('a folder swapped for a symlink after the last path check gets no temporary file', async () => {
    // The folder is opened without following a symlink and checked by its descriptor, and the
    // temporary file is made through that descriptor.
    mkdirSync(join(root, 'swap'));
    writeFileSync(join(root, 'swap', 'file.txt'), 'inside');
    let calls = 0;
    const racing = {
      ...workspace,
      resolve(path: string, options?: { mustExist?: boolean }) {
        const checked = workspace.resolve(path, options);
        if (++calls === 2) {
          renameSync(join(root, 'swap'), join(root, 'swap-moved'));
          symlinkSync(join(base, 'outside'), join(root, 'swap'));
        }
        return checked;
      },
    };
    const failed = await failureOf(writeInside(racing, 'swap/file.txt', 'LEAK'));
    expect(failed).toMatchObject({ code: 'forbidden' });
    expect(readdirSync(join(base, 'outside'))).toEqual(['target.txt']);
    expect(existsSync(join(base, 'outside', 'file.txt'))).toBe(false);
    rmSync(join(root, 'swap'));
    rmSync(join(root, 'swap-moved'), { recursive: true });
  });
});
