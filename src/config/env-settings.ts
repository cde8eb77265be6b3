import { CohortError, refusedValue } from '../errors/index.js';
import { parseOtlpHeaders } from '../telemetry/index.js';

type Env = Record<string, string | undefined>;

/** Reads a variable's text into a setting's value; undefined leaves the setting unset. */
type ReadValue = (value: string, name: string) => unknown;

/**
 * One setting the environment can give: its dotted path in the configuration, the variables that
 * set it (the first one set wins: `COHORT_MODEL` before `OPENAI_MODEL`) and how the text is read.
 */
interface EnvSetting {
  path: string;
  variables: readonly string[];
  read: ReadValue;
}

const text: ReadValue = (value) => value;

/** Empty is unset, as for every other variable (an empty path would be the folder ""). */
const nonEmpty: ReadValue = (value) => value || undefined;

/**
 * A number as people write one in decimal (`8080`, `0.5`, `.5`, `2e3`, spaces around it). Number()
 * alone read blanks as 0 and `0x1f90` as 8080, so a slip became a silent setting.
 */
const DECIMAL = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;

const number: ReadValue = (value, name) => {
  if (value === '') return undefined;
  const parsed = DECIMAL.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(parsed)) {
    throw new CohortError('invalid_input', refusedValue(name, 'a number', value), {
      field: name,
    });
  }
  return parsed;
};

const FLAG_VALUES: Record<string, boolean> = {
  on: true,
  true: true,
  '1': true,
  off: false,
  false: false,
  '0': false,
};

const flag: ReadValue = (value, name) => {
  if (value === '') return undefined;
  const word = value.trim().toLowerCase();
  // Own keys only: `COHORT_ROUTING=constructor` found Object's constructor function.
  const parsed = Object.hasOwn(FLAG_VALUES, word) ? FLAG_VALUES[word] : undefined;
  if (parsed === undefined) {
    throw new CohortError('invalid_input', refusedValue(name, 'on or off', value), {
      field: name,
    });
  }
  return parsed;
};

const list: ReadValue = (value) =>
  value === ''
    ? undefined
    : value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);

/** `COHORT_SANDBOX=off` (or `0`, `false`) is the explicit opt-out of the bash sandbox. */
const sandboxSwitch: ReadValue = (value, name) => {
  if (value === '') return undefined;
  if (/^(off|0|false|no)$/i.test(value)) return false;
  if (/^(on|1|true|yes)$/i.test(value)) return true;
  throw new CohortError('invalid_input', refusedValue(name, 'on or off', value), {
    field: name,
  });
};

const otlpHeaders: ReadValue = (value) => {
  const headers = parseOtlpHeaders(value);
  return headers && Object.keys(headers).length > 0 ? headers : undefined;
};

const setting = (path: string, variables: string | string[], read: ReadValue = text) => ({
  path,
  variables: typeof variables === 'string' ? [variables] : variables,
  read,
});

/** Every setting the environment gives, with its variables: the one table of them. */
const ENV_SETTINGS: readonly EnvSetting[] = [
  setting('dataDir', 'COHORT_DATA_DIR', nonEmpty),
  setting('databaseUrl', 'DATABASE_URL'),
  setting('keepRuns', 'COHORT_KEEP_RUNS', number),
  setting('keepSessions', 'COHORT_KEEP_SESSIONS', number),
  setting('agentDirs', 'COHORT_AGENT_DIRS', list),
  setting('sampleBook', 'COHORT_SAMPLE_BOOK'),
  setting('sourceUrl', 'COHORT_SOURCE_URL'),
  setting('logLevel', 'COHORT_LOG_LEVEL'),
  setting('routing.enabled', 'COHORT_ROUTING', flag),
  setting('routing.threshold', 'COHORT_ROUTING_THRESHOLD', number),
  setting('routing.arbiter', 'COHORT_ROUTING_ARBITER', flag),
  setting('routing.multiDomain', 'COHORT_MULTI_DOMAIN'),
  setting('model.apiKey', 'OPENAI_API_KEY'),
  setting('model.baseUrl', 'OPENAI_BASE_URL'),
  // OPENAI_MODEL is the variable of rag-agent-research.md §5; COHORT_MODEL wins when both are set.
  setting('model.name', ['COHORT_MODEL', 'OPENAI_MODEL']),
  setting('model.tiers.fast', 'COHORT_MODEL_FAST'),
  setting('model.tiers.full', 'COHORT_MODEL_FULL'),
  setting('model.embeddingModel', 'COHORT_EMBEDDING_MODEL'),
  setting('model.timeoutSeconds', 'COHORT_MODEL_TIMEOUT', number),
  setting('model.maxSteps', 'COHORT_MAX_STEPS', number),
  setting('server.port', ['PORT', 'COHORT_PORT'], number),
  setting('server.host', 'COHORT_HOST'),
  setting('server.apiKey', 'COHORT_API_KEY'),
  setting('server.corsOrigins', 'COHORT_CORS_ORIGINS', list),
  setting('server.allowedHosts', 'COHORT_ALLOWED_HOSTS', list),
  setting('tools.tavilyApiKey', 'TAVILY_API_KEY'),
  setting('tools.tavilyBaseUrl', 'TAVILY_BASE_URL'),
  setting('tools.arxivBaseUrl', 'ARXIV_BASE_URL'),
  setting('tools.useSemanticScholar', 'USE_SEMANTIC_SCHOLAR', flag),
  setting('tools.semanticScholarApiKey', 'SEMANTIC_SCHOLAR_API_KEY'),
  setting('tools.semanticScholarBaseUrl', 'SEMANTIC_SCHOLAR_BASE_URL'),
  setting('tools.callTimeoutSeconds', 'COHORT_TOOL_TIMEOUT', number),
  setting('tools.runTimeoutSeconds', 'COHORT_RUN_TIMEOUT', number),
  setting('telemetry.otlpEndpoint', 'OTEL_EXPORTER_OTLP_ENDPOINT'),
  setting('telemetry.otlpTracesEndpoint', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'),
  setting('telemetry.otlpProtocol', [
    'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
    'OTEL_EXPORTER_OTLP_PROTOCOL',
  ]),
  setting(
    'telemetry.otlpHeaders',
    ['OTEL_EXPORTER_OTLP_TRACES_HEADERS', 'OTEL_EXPORTER_OTLP_HEADERS'],
    otlpHeaders,
  ),
  setting('telemetry.serviceName', 'OTEL_SERVICE_NAME'),
  setting('research.timeoutRetrieval', 'TIMEOUT_RETRIEVAL', number),
  setting('research.timeoutWebSearch', 'TIMEOUT_WEB_SEARCH', number),
  setting('research.timeoutSubagent', 'TIMEOUT_SUBAGENT', number),
  setting('research.timeoutPythonRepl', 'TIMEOUT_PYTHON_REPL', number),
  setting('research.timeoutLlmCall', 'TIMEOUT_LLM_CALL', number),
  setting('sandbox.enabled', 'COHORT_SANDBOX', sandboxSwitch),
];

/**
 * The variable that gives `entry` its value, when one is set. An empty variable gives way to a
 * later one of the same setting that is not empty (`PORT=` does not hide `COHORT_PORT=9000`); alone
 * it is read as its setting reads empty text (unset for a number, a switch or a list, the empty text
 * for `DATABASE_URL`).
 */
const variableOf = (entry: EnvSetting, env: Env) =>
  entry.variables.find((name) => env[name] !== undefined && env[name] !== '') ??
  entry.variables.find((name) => env[name] !== undefined);

/** A setting the environment gave: its path, the variable, and the value read from it. */
export interface EnvValue {
  path: string;
  variable: string;
  value: unknown;
}

/** The settings the environment gives, each with the variable it came from. */
export function envValues(env: Env): EnvValue[] {
  const values: EnvValue[] = [];
  for (const entry of ENV_SETTINGS) {
    const variable = variableOf(entry, env);
    if (variable === undefined) continue;
    const value = entry.read(env[variable] as string, variable);
    if (value !== undefined) values.push({ path: entry.path, variable, value });
  }
  return values;
}

/** The settings the environment gives, in the config's shape. */
export function configFromEnv(env: Env): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { path, value } of envValues(env)) {
    const keys = path.split('.');
    let level = out;
    for (const key of keys.slice(0, -1)) {
      level[key] ??= {};
      level = level[key] as Record<string, unknown>;
    }
    level[keys.at(-1) as string] = value;
  }
  return out;
}

/**
 * The environment variable that set the setting at `field` (a dotted path, maybe into a list:
 * `server.corsOrigins.0`), when the environment gave it; else undefined. An error about that
 * setting names the variable, which is what the user set.
 *
 * @example
 * envVariableFor('keepRuns', { COHORT_KEEP_RUNS: '-1' }); // 'COHORT_KEEP_RUNS'
 */
export function envVariableFor(field: string, env: Env): string | undefined {
  const given = envValues(env).find(({ path }) => field === path || field.startsWith(`${path}.`));
  return given?.variable;
}
