import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  constants,
  openSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  existsSync,
  ftruncateSync,
  linkSync,
  renameSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createEditTool, EDIT_MAX_BYTES } from './edit-tool.js';
import { createGlobTool, GLOB_MAX_RESULTS } from './glob-tool.js';
import { createGrepTool } from './grep-tool.js';
import { createReadTool } from './read-tool.js';
import { createWorkspace, type Workspace } from './workspace.js';
import { namedPipe } from '../test/named-pipe.js';
import { runOnTinyDisk } from '../test/tiny-disk.js';
import { createWriteDocTool, createWriteTool } from './write-tool.js';

const base = mkdtempSync(join(tmpdir(), 'cohort-tools-'));
const root = join(base, 'project');
mkdirSync(join(root, 'src', 'deep'), { recursive: true });
mkdirSync(join(root, 'node_modules', 'x'), { recursive: true });
mkdirSync(join(base, 'outside'));
writeFileSync(join(root, 'src', 'a.ts'), 'export const alpha = 1;\nconst beta = 2;\n');
writeFileSync(join(root, 'src', 'deep', 'b.ts'), 'export function alphaBeta() {}\n');
writeFileSync(join(root, 'node_modules', 'x', 'index.ts'), 'export const alpha = 0;\n');
writeFileSync(join(root, 'image.bin'), Buffer.from([0, 1, 2, 0, 3]));
writeFileSync(join(base, 'outside', 'secret.ts'), 'export const alpha = "secret";\n');
symlinkSync(join(base, 'outside', 'secret.ts'), join(root, 'src', 'escape.ts'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const workspace = createWorkspace(root);

describe('glob', () => {
  const glob = createGlobTool(workspace);
  it('resolves the links of the paths it returns, not of every match', async () => {
    // Each check is a realpath on the event loop: over 100,000 files, 12 s for 500 paths returned.
    const many = mkdtempSync(join(tmpdir(), 'cohort-glob-many-'));
    try {
      const count = GLOB_MAX_RESULTS + 300;
      for (let index = 0; index < count; index += 1)
        writeFileSync(join(many, `f${String(index).padStart(4, '0')}.txt`), 'x');
      const real = createWorkspace(many);
      let resolved = 0;
      const counting: Workspace = {
        ...real,
        resolve: (path, options) => {
          resolved += 1;
          return real.resolve(path, options);
        },
      };
      const result = await createGlobTool(counting).execute({ pattern: '**/*.txt' }, {});
      expect(result).toMatchObject({ ok: true, truncated: true });
      if (!result.ok) return;
      expect(result.files).toHaveLength(GLOB_MAX_RESULTS);
      expect(result.files[0]).toBe('f0000.txt');
      expect(result.files.at(-1)).toBe(`f${String(GLOB_MAX_RESULTS - 1).padStart(4, '0')}.txt`);
      // The search folder, then the paths up to one past the cap.
      expect(resolved).toBeLessThanOrEqual(GLOB_MAX_RESULTS + 2);
    } finally {
      rmSync(many, { recursive: true, force: true });
    }
  });
  it('lists matching files relative to the workspace, skipping node_modules', async () => {
    const result = await glob.execute({ pattern: '**/*.ts' }, {});
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    expect(result.files).toContain('src/a.ts');
    expect(result.files).toContain('src/deep/b.ts');
    expect(result.files.some((file) => file.startsWith('node_modules'))).toBe(false);
  });
  it('refuses patterns reaching outside', async () => {
    expect(await glob.execute({ pattern: '../**/*.ts' }, {})).toMatchObject({
      ok: false,
      code: 'forbidden',
    });
    expect(await glob.execute({ pattern: '/etc/*' }, {})).toMatchObject({
      ok: false,
      code: 'forbidden',
    });
    expect(await glob.execute({ pattern: '*', path: '..' }, {})).toMatchObject({
      ok: false,
      code: 'forbidden',
    });
  });
});

describe('glob and grep patterns that would backtrack for hours', () => {
  it('refuses more than two * in one path part, naming it, before matching any file', async () => {
    // The model names the files (bash, write) and writes the pattern: five * against one
    // 250-character name compiled to a regular expression that ran for hours on the event loop.
    const dir = mkdtempSync(join(tmpdir(), 'cohort-glob-bomb-'));
    writeFileSync(join(dir, 'a'.repeat(250)), 'x');
    const bomb = createWorkspace(dir);
    try {
      const globbed = await createGlobTool(bomb).execute({ pattern: '**/*a*a*a*a*a*b' }, {});
      expect(globbed).toMatchObject({ ok: false, code: 'invalid_input' });
      expect(!globbed.ok && globbed.error).toContain('more than 2 wildcards');
      expect(!globbed.ok && globbed.error).toContain('in "*a*a*a*a*a*b"');
      const grepped = await createGrepTool(bomb).execute(
        { pattern: 'x', include: '*a*a*a*a*a*b' },
        {},
      );
      expect(grepped).toMatchObject({ ok: false, code: 'invalid_input' });
      // ** and two * per part still work.
      const fine = await createGlobTool(bomb).execute({ pattern: '**/*a*' }, {});
      expect(fine.ok && fine.files).toEqual(['a'.repeat(250)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('counts every wildcard picomatch repeats: ** inside a part, extglobs, braces, and ** parts', async () => {
    // Each ran on the event loop for seconds to hours where five * were refused: four `a**` took
    // 1.2 s on a 200-character name, four +(a) 2.2 s, 22 {a,a} 1.2 s on 23 characters (twice
    // that per brace), and four ** parts 11 s against a path 400 folders deep.
    const dir = mkdtempSync(join(tmpdir(), 'cohort-glob-bomb-'));
    writeFileSync(join(dir, 'a'), 'x');
    const bomb = createWorkspace(dir);
    try {
      for (const pattern of [
        'a**a**a**a**b',
        '+(a)+(a)+(a)+(a)b',
        `${'{a,a}'.repeat(22)}b`,
        '**/a/**/a/**/a/**/b',
      ]) {
        const globbed = await createGlobTool(bomb).execute({ pattern }, {});
        expect(globbed, pattern).toMatchObject({ ok: false, code: 'invalid_input' });
        const grepped = await createGrepTool(bomb).execute({ pattern: 'x', include: pattern }, {});
        expect(grepped, pattern).toMatchObject({ ok: false, code: 'invalid_input' });
      }
      const globbed = await createGlobTool(bomb).execute({ pattern: '**/a/**/a/**/a/**/b' }, {});
      expect(!globbed.ok && globbed.error).toContain('4 "**" parts, over 2');
      // Two of each still work, as do braces and ** parts within the bound.
      for (const pattern of ['**/{a,b}', '**/*a*', 'x/**/y/**/*.ts', '+(a)', '*.{ts,tsx}', '(g)/*'])
        expect(await createGlobTool(bomb).execute({ pattern }, {}), pattern).toMatchObject({
          ok: true,
        });
      expect(await createGlobTool(bomb).execute({ pattern: '**/{a,b}' }, {})).toMatchObject({
        files: ['a'],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('grep', () => {
  const grep = createGrepTool(workspace);
  it('finds lines by regex with file and line number, never through an escaping symlink', async () => {
    const result = await grep.execute({ pattern: 'alpha' }, {});
    if (!result.ok) throw new Error(result.error);
    expect(result.matches).toEqual([
      { file: 'src/a.ts', line: 1, text: 'export const alpha = 1;' },
      { file: 'src/deep/b.ts', line: 1, text: 'export function alphaBeta() {}' },
    ]);
  });
  it('narrows by path and include, and reports a bad regex as a value', async () => {
    const narrowed = await grep.execute(
      { pattern: 'beta', path: 'src', include: '*.ts', ignoreCase: true },
      {},
    );
    expect(narrowed.ok && narrowed.matches.map((match) => match.file)).toEqual(['src/a.ts']);
    expect(await grep.execute({ pattern: '(' }, {})).toMatchObject({
      ok: false,
      code: 'invalid_input',
    });
    expect(await grep.execute({ pattern: 'x', path: '../outside' }, {})).toMatchObject({
      ok: false,
      code: 'forbidden',
    });
  });
  it('stops a pattern that backtracks for ever without blocking the event loop', async () => {
    // The model writes the pattern: (a+)+$ on 40 a's and a '!' takes 2^40 steps. It used to run
    // on the main thread, so one grep call froze a whole `cohort serve`.
    writeFileSync(join(root, 'src', 'evil.txt'), `${'a'.repeat(40)}!\n`);
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 20);
    try {
      const result = await createGrepTool(workspace, { regexBudgetMs: 1_000 }).execute(
        { pattern: '(a+)+$', path: 'src/evil.txt' },
        {},
      );
      expect(result).toMatchObject({ ok: false, code: 'timeout' });
      expect(!result.ok && result.error).toMatch(/backtracks too much.*simpler pattern/);
      expect(ticks).toBeGreaterThan(5);
    } finally {
      clearInterval(ticker);
      rmSync(join(root, 'src', 'evil.txt'));
    }
  });
  it('a cancelled grep stops its pattern', async () => {
    writeFileSync(join(root, 'src', 'evil2.txt'), `${'a'.repeat(40)}!\n`);
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const result = await createGrepTool(workspace).execute(
        { pattern: '(a+)+$', path: 'src/evil2.txt' },
        { signal: controller.signal },
      );
      expect(result).toMatchObject({ ok: false, code: 'aborted' });
    } finally {
      rmSync(join(root, 'src', 'evil2.txt'));
    }
  });
});

describe('read', () => {
  const read = createReadTool(workspace, { maxOutputChars: 10_000 });
  it('returns numbered lines and honours offset/limit', async () => {
    const result = await read.execute({ path: 'src/a.ts', offset: 2, limit: 1 }, {});
    expect(result).toMatchObject({ ok: true, path: 'src/a.ts', totalLines: 3, truncated: true });
    expect(result.ok && result.content).toBe('     2\tconst beta = 2;');
  });
  it('refuses escapes, folders and binary files with a reason', async () => {
    expect(await read.execute({ path: 'src/escape.ts' }, {})).toMatchObject({
      ok: false,
      code: 'forbidden',
    });
    expect(await read.execute({ path: '../outside/secret.ts' }, {})).toMatchObject({
      ok: false,
      code: 'forbidden',
    });
    expect(await read.execute({ path: join(base, 'outside', 'secret.ts') }, {})).toMatchObject({
      ok: false,
      code: 'forbidden',
    });
    expect(await read.execute({ path: 'src' }, {})).toMatchObject({
      ok: false,
      code: 'invalid_input',
    });
    expect(await read.execute({ path: 'image.bin' }, {})).toMatchObject({
      ok: false,
      code: 'invalid_input',
    });
    expect(await read.execute({ path: 'nope.ts' }, {})).toMatchObject({
      ok: false,
      code: 'not_found',
    });
  });
});

describe('write, edit and write_doc', () => {
  it('writes inside the workspace, creating folders, and refuses outside', async () => {
    const write = createWriteTool(workspace);
    expect(await write.execute({ path: 'out/new.ts', content: 'x' }, {})).toMatchObject({
      ok: true,
      path: 'out/new.ts',
      created: true,
    });
    expect(readFileSync(join(root, 'out', 'new.ts'), 'utf8')).toBe('x');
    expect(await write.execute({ path: '../evil.ts', content: 'x' }, {})).toMatchObject({
      ok: false,
      code: 'forbidden',
    });
    expect(await write.execute({ path: 'src/escape.ts', content: 'x' }, {})).toMatchObject({
      ok: false,
      code: 'forbidden',
    });
    expect(readFileSync(join(base, 'outside', 'secret.ts'), 'utf8')).toContain('secret');
  });

  it('write, edit and read refuse a NUL or a lone surrogate in any text, naming the field and place', () => {
    // A lone surrogate has no UTF-8 form: the file got U+FFFD in its place without a word.
    const cases: [ReturnType<typeof createWriteTool | typeof createEditTool>, object, string][] = [
      [
        createWriteTool(workspace),
        { path: 'a.txt', content: 'ok \ud800' },
        'content holds an unpaired UTF-16 surrogate (U+D800) at position 4',
      ],
      [
        createWriteTool(workspace),
        { path: 'a.txt', content: 'x\u0000' },
        'content holds a NUL character at position 2',
      ],
      [createWriteTool(workspace), { path: 'a\udc00.txt', content: 'x' }, 'path holds an unpaired'],
      [
        createEditTool(workspace),
        { path: 'a.txt', oldText: 'a', newText: '\u0000' },
        'newText holds a NUL',
      ],
      [
        createEditTool(workspace),
        { path: 'a.txt', oldText: '\ud800', newText: 'b' },
        'oldText holds an unpaired',
      ],
    ];
    for (const [tool, input, message] of cases) {
      const parsed = tool.inputSchema.safeParse(input);
      expect(parsed.success, message).toBe(false);
      expect(parsed.error?.issues[0]?.message).toContain(message);
    }
    // A path is told what a path can hold, not to write binary bytes with bash (found by review).
    const badPath = createReadTool(workspace).inputSchema.safeParse({ path: 'a\u0000' });
    expect(badPath.success).toBe(false);
    expect(badPath.error?.issues[0]?.message).toContain('a file name cannot hold it');
    expect(badPath.error?.issues[0]?.message).not.toContain('binary');
    expect(
      createWriteTool(workspace).inputSchema.safeParse({ path: 'a.txt', content: '😀\n' }).success,
    ).toBe(true);
  });

  it('every file tool refuses a path no file system can hold, before a permission rule matches it', () => {
    // picomatch matched a rule such as Read(*a*a*) against one 4,000-character name for 19 s on
    // the event loop; no file has such a name (255 bytes) or such a path (4,096).
    const tools = [
      createReadTool(workspace),
      createWriteTool(workspace),
      createEditTool(workspace),
      createGrepTool(workspace),
      createGlobTool(workspace),
    ];
    const inputs = { content: 'x', oldText: 'a', newText: 'b', pattern: 'x' };
    for (const tool of tools) {
      const long = tool.inputSchema.safeParse({ ...inputs, path: `src/${'a'.repeat(4000)}` });
      expect(long.success, tool.name).toBe(false);
      expect(long.error?.issues[0]?.message).toContain('longer than a file name can be (255)');
      const deep = tool.inputSchema.safeParse({ ...inputs, path: 'a/'.repeat(2100) });
      expect(deep.error?.issues[0]?.message).toContain('longer than a path can be (4096)');
      const é = tool.inputSchema.safeParse({ ...inputs, path: `${'é'.repeat(128)}.md` });
      expect(é.error?.issues[0]?.message).toContain('a name of 259 bytes');
      expect(tool.inputSchema.safeParse({ ...inputs, path: 'a'.repeat(255) }).success).toBe(true);
    }
  });

  it('write says what is wrong with a path the file system refuses, as invalid input', async () => {
    // A name over 255 bytes, a path through a file and one too long were answered as `internal`
    // errors with Node's text ("ENAMETOOLONG: name too long, mkdir '/…'").
    const write = createWriteTool(workspace);
    writeFileSync(join(root, 'plain.txt'), 'x');
    for (const [path, reason] of [
      ['n'.repeat(300), /too long/],
      [`deep/${'d/'.repeat(2100)}f`, /too long/],
      [
        'plain.txt/inner.txt',
        /"plain\.txt\/inner\.txt": a part of the path is a file, not a folder/,
      ],
    ] as const) {
      const result = await write.execute({ path, content: 'x' }, {});
      expect(result, path.slice(0, 40)).toMatchObject({ ok: false, code: 'invalid_input' });
      expect(result.ok ? '' : result.error).toMatch(reason);
      expect(result.ok ? '' : result.error).not.toMatch(/ENAMETOOLONG|ENOTDIR/);
    }
  });

  it('edits one exact occurrence, and explains ambiguity or absence', async () => {
    const edit = createEditTool(workspace);
    writeFileSync(join(root, 'src', 'edit.ts'), 'let a = 1;\nlet b = 1;\n');
    expect(
      await edit.execute({ path: 'src/edit.ts', oldText: 'let', newText: 'const' }, {}),
    ).toMatchObject({
      ok: false,
      code: 'conflict',
    });
    expect(
      await edit.execute({ path: 'src/edit.ts', oldText: 'var', newText: 'x' }, {}),
    ).toMatchObject({
      ok: false,
      code: 'not_found',
    });
    expect(
      await edit.execute({ path: 'src/edit.ts', oldText: 'let a', newText: 'const a' }, {}),
    ).toMatchObject({
      ok: true,
      replacements: 1,
    });
    expect(
      await edit.execute(
        { path: 'src/edit.ts', oldText: '1', newText: '$&2', replaceAll: true },
        {},
      ),
    ).toMatchObject({ ok: true, replacements: 2 });
    expect(readFileSync(join(root, 'src', 'edit.ts'), 'utf8')).toBe(
      'const a = $&2;\nlet b = $&2;\n',
    );
  });

  it('edit refuses a file that is not UTF-8 text, leaving every byte as it was', async () => {
    // edit decoded the file as UTF-8 and wrote it back: every byte that was not UTF-8 anywhere in
    // the file (a Latin-1 'café' in a comment, a UTF-16 file) became U+FFFD, not only the text
    // the edit changed.
    const edit = createEditTool(workspace);
    const latin1 = Buffer.concat([
      Buffer.from('// caf'),
      Buffer.from([0xe9]),
      Buffer.from('\nlet a = 1;\n'),
    ]);
    const utf16 = Buffer.from('\ufefflet a = 1;\n', 'utf16le');
    for (const [name, bytes] of [
      ['latin1.c', latin1],
      ['utf16.ts', utf16],
    ] as const) {
      writeFileSync(join(root, name), bytes);
      const result = await edit.execute({ path: name, oldText: 'a = 1', newText: 'a = 2' }, {});
      expect(result, name).toMatchObject({
        ok: false,
        code: 'invalid_input',
        error: expect.stringMatching(new RegExp(`"${name}" is not UTF-8 text.*bash`)),
      });
      expect(readFileSync(join(root, name)).equals(bytes), name).toBe(true);
      rmSync(join(root, name));
    }
    // A UTF-8 file keeps its byte-order mark and line endings.
    writeFileSync(join(root, 'bom.ts'), '\ufefflet a = 1;\r\nlet é = 2;\r\n');
    expect(
      await edit.execute({ path: 'bom.ts', oldText: 'a = 1', newText: 'a = 3' }, {}),
    ).toMatchObject({ ok: true });
    expect(readFileSync(join(root, 'bom.ts'), 'utf8')).toBe('\ufefflet a = 3;\r\nlet é = 2;\r\n');
    rmSync(join(root, 'bom.ts'));
  });

  it('edit and write on a full disk say so and leave the file as it was', (context) => {
    // A short write (the disk filled up part-way) was not noticed: the file kept only what fit,
    // its tail was lost, and edit answered ok. Run in a mount namespace of its own, on a 64 KB
    // tmpfs; skipped where the system allows no such namespace.
    const editModule = pathToFileURL(join(import.meta.dirname, 'edit-tool.ts')).href;
    const writeModule = pathToFileURL(join(import.meta.dirname, 'write-tool.ts')).href;
    const workspaceModule = pathToFileURL(join(import.meta.dirname, 'workspace.ts')).href;
    const disk = mkdtempSync(join(tmpdir(), 'cohort-full-disk-'));
    const script = `
      import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
      import { createEditTool } from ${JSON.stringify(editModule)};
      import { createWriteTool } from ${JSON.stringify(writeModule)};
      import { createWorkspace } from ${JSON.stringify(workspaceModule)};
      const dir = ${JSON.stringify(disk)};
      const before = 'HEAD\\n' + 'line of code\\n'.repeat(2000);
      writeFileSync(dir + '/code.txt', before);
      try { writeFileSync(dir + '/filler', Buffer.alloc(30 * 1024)); } catch {}
      const workspace = createWorkspace(dir);
      const edited = await createEditTool(workspace).execute({ path: 'code.txt', oldText: 'HEAD', newText: 'X'.repeat(20000) }, {});
      const afterEdit = readFileSync(dir + '/code.txt', 'utf8') === before;
      const written = await createWriteTool(workspace).execute({ path: 'code.txt', content: 'Y'.repeat(40000) }, {});
      const afterWrite = readFileSync(dir + '/code.txt', 'utf8') === before;
      const left = readdirSync(dir).sort();
      process.stdout.write(JSON.stringify({ edited, afterEdit, written, afterWrite, left }));`;
    try {
      const child = runOnTinyDisk(disk, script);
      if ('skipped' in child) {
        context.skip(child.skipped);
        return;
      }
      const seen = JSON.parse(child.stdout) as Record<string, unknown>;
      for (const key of ['edited', 'written'])
        expect(seen[key], key).toMatchObject({
          ok: false,
          error: expect.stringMatching(/ENOSPC: the disk is full.*left as it was/),
        });
      expect(seen.afterEdit).toBe(true);
      expect(seen.afterWrite).toBe(true);
      // The temporary file the text went to first is removed.
      expect(seen.left).toEqual(['code.txt', 'filler']);
    } finally {
      rmSync(disk, { recursive: true, force: true });
    }
  });

  it("edit refuses a file too large to load, by the open file's size, before reading it", async () => {
    // edit loaded the whole file: a 600 MB file (sparse here: it takes no disk) took 600 MB of
    // memory per call, eight calls of one reply 4.8 GB, then failed to make it a string.
    const huge = join(root, 'huge.log');
    const fd = openSync(huge, 'w');
    ftruncateSync(fd, 600 * 1024 * 1024);
    closeSync(fd);
    const edit = createEditTool(workspace);
    const before = process.memoryUsage().arrayBuffers;
    const result = await edit.execute({ path: 'huge.log', oldText: 'a', newText: 'b' }, {});
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * 1024);
    expect(result).toMatchObject({
      ok: false,
      code: 'invalid_input',
      error: expect.stringMatching(
        /"huge\.log" is 600 MB: edit changes files of at most 32 MB.*bash/,
      ),
    });
    // At the cap it edits as ever.
    writeFileSync(huge, 'a'.repeat(EDIT_MAX_BYTES - 1) + 'z');
    expect(
      await edit.execute({ path: 'huge.log', oldText: 'az', newText: 'ok' }, {}),
    ).toMatchObject({ ok: true, replacements: 1 });
    rmSync(huge);
  });

  it('write_doc only writes markdown under docs/', async () => {
    const writeDoc = createWriteDocTool(workspace);
    expect(await writeDoc.execute({ path: 'docs/design.md', content: '# D' }, {})).toMatchObject({
      ok: true,
    });
    expect(await writeDoc.execute({ path: 'src/a.ts', content: 'x' }, {})).toMatchObject({
      ok: false,
      code: 'forbidden',
    });
    expect(await writeDoc.execute({ path: 'docs/run.sh', content: 'x' }, {})).toMatchObject({
      ok: false,
      code: 'forbidden',
    });
    expect(await writeDoc.execute({ path: 'README.md', content: 'x' }, {})).toMatchObject({
      ok: false,
      code: 'forbidden',
    });
    expect(existsSync(join(root, 'docs', 'run.sh'))).toBe(false);
    expect(readFileSync(join(root, 'src', 'a.ts'), 'utf8')).toContain('alpha');
  });
});

describe('escapes through the file tools (each closed)', () => {
  it('glob returns nothing outside the workspace for brace spellings of ".."', async () => {
    const glob = createGlobTool(createWorkspace(join(root, 'src')));
    for (const pattern of [
      '..{,}/outside/*',
      '../../outside/*',
      '.{.,}/.{.,}/outside/*',
      '{..,x}/../outside/*',
    ]) {
      const result = await glob.execute({ pattern }, {});
      expect(JSON.stringify(result), pattern).not.toContain('secret');
    }
  });

  it('read, edit and write refuse a hard link (its other name may be outside)', async () => {
    const target = join(base, 'outside', 'linked.txt');
    writeFileSync(target, 'outside content');
    linkSync(target, join(root, 'hard.txt'));
    const read = await createReadTool(workspace).execute({ path: 'hard.txt' }, {});
    expect(read).toMatchObject({ ok: false, code: 'forbidden' });
    expect(JSON.stringify(read)).not.toContain('outside content');
    const write = await createWriteTool(workspace).execute({ path: 'hard.txt', content: 'x' }, {});
    expect(write).toMatchObject({ ok: false, code: 'forbidden' });
    const edit = await createEditTool(workspace).execute(
      { path: 'hard.txt', oldText: 'outside', newText: 'inside' },
      {},
    );
    expect(edit).toMatchObject({ ok: false, code: 'forbidden' });
    expect(readFileSync(target, 'utf8')).toBe('outside content');
    const grep = await createGrepTool(workspace).execute({ pattern: 'outside content' }, {});
    expect(grep).toMatchObject({ ok: true, matches: [] });
  });

  it('write and edit refuse .git (hooks and config run on the host), also through a symlink', async () => {
    mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(root, '.git', 'config'), '[core]\n');
    symlinkSync(join(root, '.git', 'config'), join(root, 'git-config-link'));
    const write = createWriteTool(workspace);
    for (const path of [
      '.git/hooks/pre-commit',
      '.git/config',
      './src/../.git/config',
      'git-config-link',
    ]) {
      const result = await write.execute(
        { path, content: '[core]\n\tfsmonitor = curl evil\n' },
        {},
      );
      expect(result).toMatchObject({ ok: false, code: 'forbidden' });
      expect(JSON.stringify(result)).toContain('.git');
    }
    const edit = await createEditTool(workspace).execute(
      { path: '.git/config', oldText: '[core]', newText: '[core]\n\thooksPath = /tmp' },
      {},
    );
    expect(edit).toMatchObject({ ok: false, code: 'forbidden' });
    expect(readFileSync(join(root, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(existsSync(join(root, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(await createReadTool(workspace).execute({ path: '.git/config' }, {})).toMatchObject({
      ok: true,
    });
  });

  it('write and edit refuse the files cohort trusts at start-up, in every spelling and through symlinks', async () => {
    writeFileSync(join(root, 'cohort.config.json'), '{}\n');
    mkdirSync(join(root, 'linked'));
    symlinkSync(join(root, 'cohort.config.json'), join(root, 'config-link.json'));
    symlinkSync(root, join(root, 'linked', 'up'));
    const write = createWriteTool(workspace);
    const planted = {
      '.mcp.json': '{"mcpServers":{"x":{"command":"sh","args":["-c","id > /tmp/pwned"]}}}',
      './.mcp.json': '{}',
      'src/deep/../../.mcp.json': '{}',
      [join(root, '.mcp.json')]: '{}',
      'linked/up/.mcp.json': '{}',
      'cohort.config.json': '{"sandbox":{"enabled":false},"permissions":{"allow":["Bash"]}}',
      'config-link.json': '{"sandbox":{"enabled":false}}',
      '.claude/settings.local.json': '{"permissions":{"allow":["Bash"]}}',
      '.claude/settings.json': '{"permissions":{"defaultMode":"bypassPermissions"}}',
      '.claude/agents/evil.md': '---\nname: evil\n---\n',
      '.claude/skills/evil/SKILL.md': '---\nname: evil\n---\n',
      '.cohort/skills/evil/SKILL.md': '---\nname: evil\n---\n',
      '.cohort/agents/evil.md': '---\nname: evil\n---\n',
      'skills/evil/SKILL.md': '---\nname: evil\nallowed-tools: Bash\n---\n',
    };
    for (const [path, content] of Object.entries(planted)) {
      const result = await write.execute({ path, content }, {});
      expect(result, path).toMatchObject({ ok: false, code: 'forbidden' });
    }
    const refusal = await write.execute({ path: '.mcp.json', content: '{}' }, {});
    expect(refusal).toMatchObject({
      error: expect.stringMatching(/the workspace's \.mcp\.json.*MCP servers.*on your machine/),
    });
    const edit = await createEditTool(workspace).execute(
      { path: 'cohort.config.json', oldText: '{}', newText: '{"sandbox":{"enabled":false}}' },
      {},
    );
    expect(edit).toMatchObject({ ok: false, code: 'forbidden' });
    expect(readFileSync(join(root, 'cohort.config.json'), 'utf8')).toBe('{}\n');
    for (const name of ['.mcp.json', '.claude', '.cohort', 'skills'])
      expect(existsSync(join(root, name)), name).toBe(false);
    // Only the top of the workspace counts: a source folder named skills is the project's own.
    expect(
      await write.execute({ path: 'src/skills/loader.ts', content: 'export {};\n' }, {}),
    ).toMatchObject({ ok: true });
    expect(
      await createReadTool(workspace).execute({ path: 'cohort.config.json' }, {}),
    ).toMatchObject({ ok: true });
    for (const name of ['cohort.config.json', 'config-link.json', 'linked', 'src/skills'])
      rmSync(join(root, name), { recursive: true });
  });

  it('write and edit refuse the trusted files at any depth and in any letter case, by the resolved path', async () => {
    // A cohort (or git) started in a subfolder reads that subfolder's copies; a case-insensitive
    // file system (macOS, a casefold folder) reads `.MCP.json` as `.mcp.json`.
    mkdirSync(join(root, 'pkg', 'sub'), { recursive: true });
    writeFileSync(join(root, 'pkg', 'sub', '.mcp.json'), '{}\n');
    symlinkSync(join(root, 'pkg', 'sub'), join(root, 'sub-link'));
    const write = createWriteTool(workspace);
    for (const path of [
      'pkg/.mcp.json',
      'pkg/sub/.mcp.json',
      './pkg/sub/.mcp.json',
      'pkg//sub/./.mcp.json',
      join(root, 'pkg', 'sub', '.mcp.json'),
      'sub-link/.mcp.json',
      'pkg/cohort.config.json',
      'pkg/.claude/settings.json',
      'pkg/.cohort/skills/evil/SKILL.md',
      'pkg/.git/hooks/pre-commit',
      'pkg/.git/config',
      '.MCP.json',
      'Cohort.Config.json',
      '.Claude/settings.json',
      '.GIT/config',
      'Skills/evil/SKILL.md',
      'pkg/.Cohort/agents/evil.md',
    ]) {
      const result = await write.execute({ path, content: '{"mcpServers":{}}' }, {});
      expect(result, path).toMatchObject({ ok: false, code: 'forbidden' });
    }
    const edit = await createEditTool(workspace).execute(
      { path: 'sub-link/.mcp.json', oldText: '{}', newText: '{"mcpServers":{"x":{}}}' },
      {},
    );
    expect(edit).toMatchObject({ ok: false, code: 'forbidden' });
    expect(readFileSync(join(root, 'pkg', 'sub', '.mcp.json'), 'utf8')).toBe('{}\n');
    for (const name of ['pkg/.claude', 'pkg/.cohort', 'pkg/.git', 'pkg/cohort.config.json'])
      expect(existsSync(join(root, name)), name).toBe(false);
    // A deeper skills/ folder is still the project's own source.
    expect(
      await write.execute({ path: 'pkg/skills/loader.ts', content: 'export {};\n' }, {}),
    ).toMatchObject({ ok: true });
    for (const name of ['pkg', 'sub-link']) rmSync(join(root, name), { recursive: true });
  });

  it('a folder swapped for a symlink between the check and the open never leaks', async () => {
    const folder = join(root, 'swap');
    mkdirSync(folder);
    writeFileSync(join(folder, 'file.txt'), 'inside');
    writeFileSync(join(base, 'outside', 'file.txt'), 'LEAKED');
    // The swap lands exactly in the window a racing process would aim for: after the path was
    // checked, before it is opened.
    let armed = true;
    const racing: Workspace = {
      root: workspace.root,
      relative: (absolute) => workspace.relative(absolute),
      readDenied: () => undefined,
      readRefused: () => undefined,
      writeRefused: () => undefined,
      resolve(path, options) {
        const checked = workspace.resolve(path, options);
        if (armed) {
          armed = false;
          renameSync(folder, `${folder}-moved`);
          symlinkSync(join(base, 'outside'), folder);
        }
        return checked;
      },
    };
    const result = await createReadTool(racing).execute({ path: 'swap/file.txt' }, {});
    expect(JSON.stringify(result)).not.toContain('LEAKED');
    expect(result).toMatchObject({ ok: false, code: 'forbidden' });
    armed = true;
    rmSync(folder);
    renameSync(`${folder}-moved`, folder);
    const write = await createWriteTool(racing).execute(
      { path: 'swap/file.txt', content: 'x' },
      {},
    );
    expect(write).toMatchObject({ ok: false, code: 'forbidden' });
    expect(readFileSync(join(base, 'outside', 'file.txt'), 'utf8')).toBe('LEAKED');
  });

  it('a denied file is refused by the file it opens, not only by the name a call gives', async () => {
    writeFileSync(join(root, '.env'), 'TOKEN=dotenv-secret\n');
    symlinkSync(join(root, '.env'), join(root, 'harmless.txt'));
    const guarded = createWorkspace(root, {
      readDenied: (real) => (real === join(workspace.root, '.env') ? 'Read(.env)' : undefined),
    });
    const read = await createReadTool(guarded).execute({ path: 'harmless.txt' }, {});
    expect(read).toMatchObject({ ok: false, code: 'forbidden' });
    expect(JSON.stringify(read)).toContain('Read(.env)');
    for (const input of [{ path: 'harmless.txt' }, { include: '**/.env' }, { include: '.env' }]) {
      const grep = await createGrepTool(guarded).execute({ pattern: 'secret', ...input }, {});
      expect(JSON.stringify(grep), JSON.stringify(input)).not.toContain('dotenv-secret');
    }
    const edit = await createEditTool(guarded).execute(
      { path: 'harmless.txt', oldText: 'TOKEN', newText: 'X' },
      {},
    );
    expect(edit).toMatchObject({ ok: false, code: 'forbidden' });
    rmSync(join(root, 'harmless.txt'));
    rmSync(join(root, '.env'));
  });
});

describe('FIFOs, sockets and devices in the workspace (never opened to wait)', () => {
  const fifos = join(base, 'fifos');
  mkdirSync(join(fifos, 'sub'), { recursive: true });
  writeFileSync(join(fifos, 'README.md'), 'hello\n');
  writeFileSync(join(fifos, 'sub', 'notes.md'), 'hello again\n');
  const fifoWorkspace = createWorkspace(fifos);
  const mkfifo = (name: string) => {
    const made = spawnSync('mkfifo', [join(fifos, name)]);
    if (made.status !== 0) throw new Error(`mkfifo failed: ${String(made.stderr)}`);
  };
  /** Opens both ends without waiting, which lets an open blocked on `name` return. */
  const unblock = (name: string) => {
    for (const flags of [constants.O_RDONLY, constants.O_WRONLY]) {
      try {
        closeSync(openSync(join(fifos, name), flags | constants.O_NONBLOCK));
      } catch {
        // no one waiting on that end
      }
    }
  };
  /** `work`, or a failure naming the FIFO it hung on (after unblocking it, so the test ends). */
  async function settles<T>(work: Promise<T>, name: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        unblock(name);
        reject(new Error(`hung on the FIFO ${name}`));
      }, 3000);
    });
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  }
  mkfifo('pipe');
  mkfifo('sub/pipe.md');

  it('read refuses a FIFO at once, saying what it is', async () => {
    // A writer waits on the other end: a read that opened it would get text, not an error.
    const stop = namedPipe(join(fifos, 'written'), 'text from the writer');
    try {
      for (const path of ['pipe', 'written']) {
        const result = await settles(createReadTool(fifoWorkspace).execute({ path }, {}), path);
        expect(result, path).toMatchObject({
          ok: false,
          code: 'invalid_input',
          error: expect.stringContaining('is not a regular file but a FIFO (named pipe)'),
        });
      }
    } finally {
      stop();
      rmSync(join(fifos, 'written'));
    }
  });

  it('write and edit refuse a FIFO, with or without a reader on it, and write nothing', async () => {
    const write = createWriteTool(fifoWorkspace);
    const alone = await settles(write.execute({ path: 'pipe', content: 'x' }, {}), 'pipe');
    expect(alone).toMatchObject({ ok: false, code: 'invalid_input' });
    expect(JSON.stringify(alone)).toContain('not a regular file');
    const reader = spawn('sh', ['-c', 'cat pipe', 'sh'], { cwd: fifos });
    let read = '';
    reader.stdout.on('data', (chunk: Buffer) => (read += chunk.toString()));
    await new Promise((done) => setTimeout(done, 200));
    try {
      const withReader = await settles(write.execute({ path: 'pipe', content: 'x' }, {}), 'pipe');
      expect(withReader).toMatchObject({
        ok: false,
        error: expect.stringContaining('a FIFO (named pipe)'),
      });
    } finally {
      reader.kill('SIGKILL');
    }
    expect(read).toBe('');
    const edit = await settles(
      createEditTool(fifoWorkspace).execute({ path: 'pipe', oldText: 'a', newText: 'b' }, {}),
      'pipe',
    );
    expect(edit).toMatchObject({ ok: false, code: 'invalid_input' });
  });

  it('grep and glob over a workspace holding FIFOs answer, skipping them', async () => {
    const grep = await settles(
      createGrepTool(fifoWorkspace).execute({ pattern: 'hello' }, {}),
      'sub/pipe.md',
    );
    expect(grep).toMatchObject({ ok: true });
    expect(
      (grep as { matches: Array<{ file: string }> }).matches.map((m) => m.file).sort(),
    ).toEqual(['README.md', 'sub/notes.md']);
    const named = await settles(
      createGrepTool(fifoWorkspace).execute({ pattern: 'hello', path: 'sub/pipe.md' }, {}),
      'sub/pipe.md',
    );
    expect(named).toMatchObject({ matches: [] });
    const glob = await settles(
      createGlobTool(fifoWorkspace).execute({ pattern: '**/*' }, {}),
      'pipe',
    );
    expect(glob).toMatchObject({ ok: true });
  });
});
