// `cohort` from the sources, for tests that start real cohort processes without a build: the entry
// of the run's bundle of the sources (cli-bundle.ts), started as `node <testCli()> serve --port 0`.
import { endProcess, main } from '../cli/main.js';

await endProcess(process.argv[2], await main(process.argv.slice(2)));
