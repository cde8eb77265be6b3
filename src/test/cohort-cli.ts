// `cohort` from the sources, for tests that start real cohort processes without a build:
// node --import tsx src/test/cohort-cli.ts serve --port 0
import { main } from '../cli/main.js';

process.exitCode = await main(process.argv.slice(2));
