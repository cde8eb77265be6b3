export {
  nodeChildProcess,
  nodeDns,
  nodeDnsPromises,
  nodeHttp,
  nodeNet,
  nodeV8,
  nodeWorkerThreads,
} from './lazy-builtins.js';
