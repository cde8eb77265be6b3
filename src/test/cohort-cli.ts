// `cohort` from the sources, for tests that start real cohort processes without a build: the entry
// of the run's bundle of the sources (cli-bundle.ts), started as `node <testCli()> serve --port 0`.
import { main } from '../cli/main.js';

process.exitCode = await main(process.argv.slice(2));
