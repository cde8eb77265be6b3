export {
  createSandbox,
  scrubbedEnv,
  type Sandbox,
  type SandboxCommand,
  type SandboxLimits,
  type CreateSandboxOptions,
} from './sandbox.js';
export { BWRAP_INSTALL_HINT, findBwrap } from './find-bwrap.js';
export { bwrapArgs, type SandboxPlan } from './bwrap-args.js';
export { resolveDenyPaths, isInsideAny } from './deny-paths.js';
export {
  hostAllowed,
  startAllowListProxy,
  SANDBOX_PROXY_PORT,
  type AllowListProxy,
  type AllowListProxyOptions,
} from './network-proxy.js';
export { runBounded, type BoundedRun, type BoundedRunOptions } from './run-bounded.js';
export { createProcessLimit, type ProcessLimit } from './process-limit.js';
export {
  runCode,
  findPython,
  DEFAULT_PYTHON_TIMEOUT_MS,
  type CodeRunResult,
  type CodeRunOptions,
  type CodeSandbox,
} from './code-runner.js';
export {
  diskLimitMessage,
  watchDisk,
  DISK_RESERVE,
  type DiskLimitHit,
  type DiskLimits,
} from './disk-quota.js';
