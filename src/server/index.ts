export {
  createServer,
  type ServedAssistant,
  type ServerOptions,
  type ServerSettings,
} from './create-server.js';
export {
  startServer,
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  type RunningServer,
  type StartServerOptions,
} from './start-server.js';
export { buildOpenApiDocument } from './openapi.js';
export { apiError, errorBody, type ApiError } from './api-error.js';
export {
  loadWebAssets,
  bundleWebAssets,
  writeWebAssets,
  WEB_SOURCE_DIR,
  WEB_DIST_DIR,
  type WebAssets,
} from './web-assets.js';
export type { ServerEnv } from './server-env.js';
