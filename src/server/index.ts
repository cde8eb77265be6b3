export {
  createServer,
  type ServedAssistant,
  type ServerOptions,
  type ServerSettings,
} from './create-server.js';
export {
  assertPortFree,
  REQUEST_TIMEOUT_MS,
  startServer,
  type RunningServer,
  type StartServerOptions,
} from './start-server.js';
export { SERVER_HEAP_V8_FLAGS, useServerHeapSettings } from './heap-settings.js';
