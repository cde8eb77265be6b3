import { spawnSync, type SpawnSyncReturns } from 'node:child_process';

/**
 * Runs `script` (an ES module, through tsx) in a mount namespace of its own where `disk` is a
 * 64 KB tmpfs: how tests make a write run out of space without filling the real disk. Gives
 * undefined, with the reason, where the system allows no such namespace (the test then skips).
 *
 * @example
 * const run = runOnTinyDisk(disk, `import { writeFileSync } from 'node:fs'; …`);
 * if ('skipped' in run) return context.skip(run.skipped);
 */
export function runOnTinyDisk(
  disk: string,
  script: string,
): SpawnSyncReturns<string> | { skipped: string } {
  const child = spawnSync(
    'unshare',
    [
      '-rm',
      'sh',
      '-c',
      'mount -t tmpfs -o size=64k tmpfs "$1" && exec "$2" --import tsx --input-type=module -e "$3"',
      '-',
      disk,
      process.execPath,
      script,
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  if (child.status !== 0 && !child.stdout)
    return {
      skipped: `no mount namespace with a tmpfs here: ${child.stderr || String(child.error)}`,
    };
  return child;
}
