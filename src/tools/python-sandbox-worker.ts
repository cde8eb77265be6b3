/**
 * The source of the worker thread that runs Python for {@link runPython}. It is kept as text and
 * started with `new Worker(source, { eval: true })` so the same code runs from `src/` under tsx or
 * vitest and from `dist/` without a build step for a second entry point.
 *
 * Protocol: workerData `{ pyodidePath, indexURL }`; the worker posts `{ type: 'ready' }` once
 * Pyodide is loaded, then takes one `{ code }` message and posts `{ type: 'result', stdout,
 * stderr, result }` or `{ type: 'error', stdout, stderr, error }`.
 *
 * Confinement: Pyodide gets an empty object as its `js` globals, the `js` and `pyodide_js`
 * modules cannot be imported from Python, and the worker's network globals are removed before
 * user code runs. Files live only in Pyodide's in-memory file system. The time limit is enforced
 * by the parent, which terminates the worker.
 */
export const PYTHON_SANDBOX_WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { loadPyodide } = require(workerData.pyodidePath);
const stdout = [];
const stderr = [];
(async () => {
  const pyodide = await loadPyodide({
    indexURL: workerData.indexURL,
    jsglobals: Object.create(null),
    stdout: (line) => stdout.push(line),
    stderr: (line) => stderr.push(line),
  });
  pyodide.runPython([
    'import sys',
    "for _name in ('js', 'pyodide_js', 'pyodide.http', 'micropip'):",
    '    sys.modules[_name] = None',
    'del _name',
  ].join('\n'));
  for (const name of ['fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource', 'Request', 'Response', 'Headers']) {
    try { delete globalThis[name]; } catch { globalThis[name] = undefined; }
  }
  parentPort.once('message', ({ code }) => {
    try {
      const value = pyodide.runPython(code);
      let result;
      if (value !== undefined && value !== null) {
        result = String(value);
        if (typeof value.destroy === 'function') value.destroy();
      }
      parentPort.postMessage({ type: 'result', stdout: stdout.join('\n'), stderr: stderr.join('\n'), result });
    } catch (error) {
      parentPort.postMessage({
        type: 'error',
        stdout: stdout.join('\n'),
        stderr: stderr.join('\n'),
        error: String(error && error.message ? error.message : error),
      });
    }
  });
  parentPort.postMessage({ type: 'ready' });
})().catch((error) => {
  parentPort.postMessage({ type: 'error', stdout: '', stderr: '', error: 'Pyodide failed to load: ' + String(error && error.message ? error.message : error) });
});
`;
