export {
  createServer,
  type ServedAssistant,
  type ServerOptions,
  type ServerSettings,
} from './create-server.js';
export { startServer, type RunningServer, type StartServerOptions } from './start-server.js';
