import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// `npm install` warns (EBADENGINE) about every package whose `engines.node` refuses the Node it
// runs on: a package locked here must accept every Node version package.json's `engines` promises,
// down to the oldest. (OpenTelemetry JS 3.x and its 0.300 exporters want Node 22.15 or later: they
// stay on the 2.x line, pinned in package.json, while cohort supports Node 20.)

const ROOT = resolve(import.meta.dirname, '..');
const read = (file: string) => JSON.parse(readFileSync(resolve(ROOT, file), 'utf8')) as unknown;

describe('engines', () => {
  it('every locked package accepts the oldest Node that package.json promises', () => {
    const pkg = read('package.json') as { engines: { node: string } };
    const oldest = semver.minVersion(pkg.engines.node);
    expect(oldest).not.toBeNull();
    const lock = read('package-lock.json') as {
      packages: Record<string, { engines?: { node?: string } | string[] }>;
    };
    const refusing = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return path && range && !semver.satisfies(oldest as semver.SemVer, range)
        ? [`${path.replace(/^.*node_modules\//, '')}: node ${range}`]
        : [];
    });
    expect(refusing).toEqual([]);
  });
});
