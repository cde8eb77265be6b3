import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isCohortError } from '../errors/index.js';
import { createWorkspace } from './workspace.js';

const base = mkdtempSync(join(tmpdir(), 'cohort-ws-'));
const root = join(base, 'project');
const outside = join(base, 'outside');
mkdirSync(join(root, 'src'), { recursive: true });
mkdirSync(outside);
writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
writeFileSync(join(outside, 'secret.txt'), 'secret');
symlinkSync(join(outside, 'secret.txt'), join(root, 'link-file'));
symlinkSync(outside, join(root, 'link-dir'));
symlinkSync(join(outside, 'missing.txt'), join(root, 'dangling'));
symlinkSync(join(root, 'src'), join(root, 'inner-link'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const code = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return isCohortError(error) ? error.code : 'other';
  }
  return 'ok';
};

describe('createWorkspace', () => {
  const workspace = createWorkspace(root);

  it('resolves relative and absolute paths inside the root', () => {
    expect(workspace.resolve('src/a.ts')).toBe(join(workspace.root, 'src', 'a.ts'));
    expect(workspace.resolve(join(root, 'src', 'a.ts'))).toBe(join(workspace.root, 'src', 'a.ts'));
    expect(workspace.relative(workspace.resolve('src/a.ts'))).toBe('src/a.ts');
  });

  it('refuses ".." even when it would land inside', () => {
    expect(code(() => workspace.resolve('src/../src/a.ts'))).toBe('forbidden');
    expect(code(() => workspace.resolve('../outside/secret.txt'))).toBe('forbidden');
  });

  it('refuses absolute paths outside the root', () => {
    expect(code(() => workspace.resolve(join(outside, 'secret.txt')))).toBe('forbidden');
    expect(code(() => workspace.resolve('/etc/passwd'))).toBe('forbidden');
  });

  it('refuses symlinks that lead out, for reads and for writes', () => {
    expect(code(() => workspace.resolve('link-file'))).toBe('forbidden');
    expect(code(() => workspace.resolve('link-dir/secret.txt'))).toBe('forbidden');
    expect(code(() => workspace.resolve('link-dir/new.txt', { mustExist: false }))).toBe(
      'forbidden',
    );
    expect(code(() => workspace.resolve('dangling', { mustExist: false }))).toBe('forbidden');
  });

  it('allows symlinks that stay inside', () => {
    expect(workspace.resolve('inner-link/a.ts')).toBe(join(workspace.root, 'src', 'a.ts'));
  });

  it('reports a missing file as not_found and allows it for writes', () => {
    expect(code(() => workspace.resolve('src/missing.ts'))).toBe('not_found');
    expect(workspace.resolve('new/dir/file.md', { mustExist: false })).toBe(
      join(workspace.root, 'new', 'dir', 'file.md'),
    );
  });

  it('refuses a root that does not exist', () => {
    expect(code(() => createWorkspace(join(base, 'nope')))).toBe('invalid_input');
  });

  it('says a root holding U+FFFD came with bytes that are not UTF-8', () => {
    // Node reads `--workspace caf\xE9` (Latin-1) as 'caf\uFFFD': "does not exist" hid why.
    expect(() => createWorkspace(join(base, 'caf\uFFFD'))).toThrow(/bytes that are not UTF-8/);
  });
});
