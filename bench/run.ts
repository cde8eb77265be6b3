/**
 * `npm run bench`: runs every benchmark section and prints its figures. Sections whose input is
 * missing (the ../shared corpus) say so and are skipped. Timings are noisy on a shared machine:
 * compare ratios measured in one run.
 */
import { benchSections } from './sections.js';

const only = process.argv.slice(2);
for (const section of benchSections) {
  if (only.length && !only.includes(section.name)) continue;
  process.stdout.write(`\n## ${section.name}: ${section.title}\n`);
  try {
    const figures = await section.run();
    const width = Math.max(...Object.keys(figures).map((k) => k.length));
    for (const [key, value] of Object.entries(figures)) {
      process.stdout.write(`  ${key.padEnd(width)}  ${value}\n`);
    }
  } catch (error) {
    process.stdout.write(`  failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
