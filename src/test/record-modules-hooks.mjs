// Module hooks of record-modules.mjs: append each loaded URL to COHORT_MODULE_LOG.
import { appendFileSync } from 'node:fs';

const log = process.env.COHORT_MODULE_LOG;

export async function load(url, context, nextLoad) {
  if (log) appendFileSync(log, url + '\n');
  return nextLoad(url, context);
}
