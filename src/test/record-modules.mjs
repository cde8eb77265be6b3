// Preloaded with `node --import`: records the URL of every module loaded after it into the file
// named by COHORT_MODULE_LOG (the hooks run on Node's loader thread, see record-modules-hooks.mjs).
import { register } from 'node:module';

register('./record-modules-hooks.mjs', import.meta.url);
