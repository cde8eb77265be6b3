/**
 * `npm run bench`: runs every benchmark section and prints its figures: cohort's beside its
 * peer's, measured in the same run, with the ratio. Sections whose input is missing (the ../shared
 * corpus) say so and are skipped. Timings are noisy on a shared machine: compare ratios.
 *
 * Usage: npm run bench [-- --quick] [-- section…]
 */
import { benchSections } from './sections.js';
import { scriptArgs } from '../scripts/script-args.js';

const { values, positionals: only } = scriptArgs(
  { options: { quick: { type: 'boolean', default: false } }, allowPositionals: true },
  `npm run bench [-- --quick] [-- section…] (sections: ${benchSections.map((s) => s.name).join(', ')})`,
);
const options = { quick: values.quick };
const started = performance.now();
for (const section of benchSections) {
  if (only.length && !only.includes(section.name)) continue;
  process.stdout.write(`\n## ${section.name}: ${section.title}\n`);
  try {
    const figures = await section.run(options);
    const width = Math.max(...Object.keys(figures).map((k) => k.length));
    for (const [key, value] of Object.entries(figures)) {
      process.stdout.write(`  ${key.padEnd(width)}  ${value}\n`);
    }
  } catch (error) {
    process.stdout.write(`  failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
process.stdout.write(
  `\n${options.quick ? 'quick run' : 'full run'} in ${Math.round((performance.now() - started) / 1000)} s\n`,
);
