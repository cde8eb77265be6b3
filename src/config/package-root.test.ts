import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isCohortError } from '../errors/index.js';
import { findPackageRoot, packagePath, packageRoot } from './package-root.js';

const dir = mkdtempSync(join(tmpdir(), 'cohort-root-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('packageRoot', () => {
  it('is the folder of cohort’s package.json when running from the sources', () => {
    expect(packageRoot()).toBe(
      fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, ''),
    );
    const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { name: string };
    expect(pkg.name).toBe('cohort');
  });

  it('is found at any depth below the package: a bundle file in dist/ or dist/chunks/, a module in dist/config/', () => {
    const pkg = join(dir, 'node_modules', 'cohort');
    for (const sub of ['dist', 'dist/chunks', 'dist/config'])
      mkdirSync(join(pkg, sub), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), '{"name":"cohort"}');
    expect(findPackageRoot(join(pkg, 'dist'))).toBe(pkg);
    expect(findPackageRoot(join(pkg, 'dist/chunks'))).toBe(pkg);
    expect(findPackageRoot(join(pkg, 'dist/config'))).toBe(pkg);
  });

  it('fails with an actionable error when no package.json is above', () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    let error: unknown;
    try {
      findPackageRoot(empty);
    } catch (caught) {
      error = caught;
    }
    expect(isCohortError(error, 'internal')).toBe(true);
    expect((error as Error).message).toContain(`no package.json above ${empty}. Reinstall cohort.`);
  });
});
