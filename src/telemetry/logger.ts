import * as z from 'zod';
import { clipText } from '../errors/index.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** Log levels, most verbose first. */
export const LogLevel = lazySchema(() => z.enum(['debug', 'info', 'warn', 'error', 'silent']));
export type LogLevel = z.infer<typeof LogLevel>;

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

/**
 * Most characters of one string field in a log line. Fields carry text from outside (a server's
 * error body, a question, a path); one of megabytes would otherwise be written whole, each time.
 */
export const MAX_LOG_FIELD_CHARS = 4_000;

function boundFields(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] = typeof value === 'string' ? clipText(value, MAX_LOG_FIELD_CHARS) : value;
  }
  return out;
}

/** A structured logger: one JSON line per event on stderr, so stdout stays the answer. */
export interface Logger {
  debug(event: string, fields?: Record<string, unknown>): void;
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/**
 * Creates a logger writing JSON lines to `write` (stderr by default) at `level` and above. A string
 * field longer than {@link MAX_LOG_FIELD_CHARS} is cut there.
 *
 * @example
 * const log = createLogger({ level: 'info' });
 * log.warn('embedding_failed', { cause: 'timeout' });
 */
export function createLogger(
  options: {
    level?: LogLevel;
    write?: (line: string) => void;
    fields?: Record<string, unknown>;
  } = {},
): Logger {
  const level = options.level ?? 'warn';
  const write = options.write ?? ((line: string) => process.stderr.write(line + '\n'));
  const base = options.fields ?? {};
  const emit = (at: LogLevel, event: string, fields?: Record<string, unknown>) => {
    if (ORDER[at] < ORDER[level]) return;
    const line = { time: new Date().toISOString(), level: at, event, ...base, ...fields };
    write(JSON.stringify(boundFields(line)));
  };
  return {
    debug: (event, fields) => emit('debug', event, fields),
    info: (event, fields) => emit('info', event, fields),
    warn: (event, fields) => emit('warn', event, fields),
    error: (event, fields) => emit('error', event, fields),
    child: (fields) => createLogger({ level, write, fields: { ...base, ...fields } }),
  };
}

/** A logger that drops everything (tests, library use without logging). */
export const silentLogger: Logger = createLogger({ level: 'silent' });
