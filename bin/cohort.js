#!/usr/bin/env node
// Thin launcher: the CLI lives in the compiled library so `npx cohort` starts fast.
import { endProcess, main } from '../dist/cli/main.js';

await endProcess(process.argv[2], await main(process.argv.slice(2)));
