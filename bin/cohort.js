#!/usr/bin/env node
// Thin launcher: the CLI lives in the compiled library so `npx cohort` starts fast.
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
