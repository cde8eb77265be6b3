// Bundles the web chat page (src/server/web) into dist/web with esbuild. Runs after `tsc` in
// `npm run build`, reusing the compiled server's bundler so the page is built one way only.
import { fileURLToPath } from 'node:url';
import { writeWebAssets } from '../dist/server/web-assets.js';

const root = new URL('../', import.meta.url);
const source = fileURLToPath(new URL('src/server/web/', root));
const out = fileURLToPath(new URL('dist/web/', root));

await writeWebAssets(source, out);
console.log(`web page bundled into ${out}`);
