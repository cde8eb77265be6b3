import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { namedPipe } from '../test/named-pipe.js';
import { assertDataFolder } from '../store/index.js';
import { hasModel, loadConfig, MAX_DURATION_SECONDS } from './index.js';

describe('loadConfig', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'cohort-config-'));

  it('names a cohort.config.json or .mcp.json that is a broken symbolic link instead of ignoring it', () => {
    // existsSync follows the link: a link to a missing file, or one that loops, read as no file,
    // and every setting in it was silently left at its default.
    for (const name of ['cohort.config.json', '.mcp.json']) {
      const dir = mkdtempSync(join(tmpdir(), 'cohort-config-link-'));
      symlinkSync(join(dir, 'moved-away.json'), join(dir, name));
      expect(() => loadConfig({ env: {}, cwd: dir }), name).toThrow(
        `${join(dir, name)}: this configuration file is a symbolic link to ${join(dir, 'moved-away.json')}, which does not exist`,
      );
      const loop = mkdtempSync(join(tmpdir(), 'cohort-config-link-'));
      symlinkSync(join(loop, name), join(loop, name));
      expect(() => loadConfig({ env: {}, cwd: loop }), name).toThrow(/a symbolic link .* loops/);
    }
  });

  it('refuses a URL as the data folder, saying where a PostgreSQL URL goes', () => {
    // `--data-dir postgres://db/cohort` made a folder ./postgres:/db/cohort and ingested into it.
    for (const dataDir of [
      'postgres://db.example.org/cohort',
      'postgresql://u@h/c',
      'file:///tmp/x',
    ])
      expect(() => loadConfig({ env: {}, cwd, overrides: { dataDir } }), dataDir).toThrow(
        /dataDir: .*not a URL.*DATABASE_URL/,
      );
    expect(() => loadConfig({ env: { COHORT_DATA_DIR: 'postgres://h/c' }, cwd })).toThrow(
      /COHORT_DATA_DIR \(dataDir\)/,
    );
    expect(loadConfig({ env: {}, cwd, overrides: { dataDir: 'memory://' } }).dataDir).toBe(
      'memory://',
    );
    expect(loadConfig({ env: {}, cwd, overrides: { dataDir: 'data:2026/x' } }).dataDir).toBe(
      'data:2026/x',
    );
  });

  it('refuses a blank data folder, or one whose name holds a control character', () => {
    // COHORT_DATA_DIR=' ' made a folder named ' ' and ingested the book into it; a line break
    // (a pasted value) made a folder 'a\nb'. Neither is a folder anyone means.
    for (const dataDir of [' ', '\t', 'data\n', 'a\nb', 'x\u0007'])
      expect(() => loadConfig({ env: {}, cwd, overrides: { dataDir } }), dataDir).toThrow(
        /dataDir: (is blank|holds a control character)/,
      );
    expect(() => loadConfig({ env: { COHORT_DATA_DIR: '  ' }, cwd })).toThrow(
      /COHORT_DATA_DIR \(dataDir\): is blank/,
    );
    expect(loadConfig({ env: {}, cwd, overrides: { dataDir: 'my data' } }).dataDir).toBe('my data');
    // `"dataDir": ""` in the file passed, and the store said "Cannot write in the data folder ""
    // (ENOENT). Pass --data-dir …", a flag the user never gave.
    const dir = mkdtempSync(join(tmpdir(), 'cohort-config-empty-'));
    writeFileSync(join(dir, 'cohort.config.json'), '{"dataDir": ""}');
    expect(() => loadConfig({ env: {}, cwd: dir, file: 'cohort.config.json' })).toThrow(
      'Invalid configuration: dataDir in cohort.config.json: is empty: name a folder, or leave it unset for .cohort',
    );
    expect(existsSync(join(dir, '.cohort'))).toBe(false);
  });

  it('has named defaults: extractive mode, 0.7 routing threshold, gpt-4o-mini', () => {
    const config = loadConfig({ env: {}, cwd });
    expect(config.dataDir).toBe('.cohort');
    expect(config.routing.threshold).toBe(0.7);
    expect(config.model.name).toBe('gpt-4o-mini');
    expect(config.research.timeoutSubagent).toBe(300);
    expect(hasModel(config)).toBe(false);
    expect(config.routing.enabled).toBe(true);
  });

  it('reads and checks the sourceUrl template', () => {
    const env = { COHORT_SOURCE_URL: 'https://robots.example.edu/{path}' };
    expect(loadConfig({ env, cwd }).sourceUrl).toBe('https://robots.example.edu/{path}');
    expect(loadConfig({ env: {}, cwd }).sourceUrl).toBeUndefined();
    expect(() =>
      loadConfig({ env: { COHORT_SOURCE_URL: 'https://robots.example.edu/' }, cwd }),
    ).toThrow('COHORT_SOURCE_URL (sourceUrl): must contain {path}');
  });

  it('reads the routing rollout switch from the file and the environment', () => {
    expect(loadConfig({ env: { COHORT_ROUTING: 'off' }, cwd }).routing.enabled).toBe(false);
    expect(loadConfig({ env: { COHORT_ROUTING: 'ON' }, cwd }).routing.enabled).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'cohort-config-'));
    writeFileSync(join(dir, 'cohort.config.json'), JSON.stringify({ routing: { enabled: false } }));
    expect(loadConfig({ env: {}, cwd: dir }).routing.enabled).toBe(false);
    writeFileSync(join(dir, 'cohort.config.json'), JSON.stringify({ routing: { enabled: 'no' } }));
    expect(() => loadConfig({ env: {}, cwd: dir })).toThrow(/routing\.enabled/);
  });

  it('layers file, environment and overrides in that order', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cohort-config-'));
    writeFileSync(
      join(dir, 'cohort.config.json'),
      JSON.stringify({ dataDir: 'from-file', routing: { threshold: 0.5 } }),
    );
    const config = loadConfig({
      env: { COHORT_DATA_DIR: 'from-env', OPENAI_BASE_URL: 'http://localhost:11434/v1' },
      cwd: dir,
      overrides: { dataDir: 'from-flag' },
    });
    expect(config.dataDir).toBe('from-flag');
    expect(config.routing.threshold).toBe(0.5);
    expect(hasModel(config)).toBe(true);
  });

  it('reads an empty COHORT_DATA_DIR as unset, as it does an empty OPENAI_API_KEY', () => {
    // `COHORT_DATA_DIR= cohort ask …` (a template's empty line) failed: 'Cannot write in the data
    // folder "" (ENOENT)'.
    const config = loadConfig({ env: { COHORT_DATA_DIR: '', OPENAI_API_KEY: '' }, cwd });
    expect(config.dataDir).toBe('.cohort');
    expect(hasModel(config)).toBe(false);
  });

  it('lets an empty variable hide no other variable of its setting (PORT= and COHORT_PORT)', () => {
    // `PORT= cohort serve` with COHORT_PORT=9000 listened on 8787: the empty PORT counted as set,
    // won, and was then read as unset.
    expect(loadConfig({ env: { PORT: '', COHORT_PORT: '9000' }, cwd }).server.port).toBe(9000);
    expect(loadConfig({ env: { COHORT_MODEL: '', OPENAI_MODEL: 'm' }, cwd }).model.name).toBe('m');
    expect(() => loadConfig({ env: { PORT: '', COHORT_PORT: '99999' }, cwd })).toThrow(
      /: COHORT_PORT \(server\.port\) is 99999; the limit is 65535$/,
    );
    // An empty variable alone is read as it always was (an empty DATABASE_URL is the empty text).
    expect(loadConfig({ env: { PORT: '' }, cwd }).server.port).toBe(8787);
  });

  it('reads a number variable only as a decimal number', () => {
    // Number() read ' ' as 0 (COHORT_ROUTING_THRESHOLD=' ' routed with threshold 0, PORT=' ' took
    // a random port) and '0x1f90' as 8080, both without a word.
    for (const value of [' ', '\t', '0x1f90', '0b1', '0o17', '1_000'])
      expect(() => loadConfig({ env: { PORT: value }, cwd }), JSON.stringify(value)).toThrow(
        `PORT must be a number, not ${JSON.stringify(value)}`,
      );
    for (const [value, port] of [
      ['8080', 8080],
      [' 8080 ', 8080],
      ['8.08e3', 8080],
      ['+80', 80],
    ] as const)
      expect(loadConfig({ env: { PORT: value }, cwd }).server.port, value).toBe(port);
    expect(loadConfig({ env: { COHORT_ROUTING_THRESHOLD: '.5' }, cwd }).routing.threshold).toBe(
      0.5,
    );
  });

  it('names the wrong setting', () => {
    expect(() => loadConfig({ env: { COHORT_ROUTING_THRESHOLD: 'high' }, cwd })).toThrow(
      'COHORT_ROUTING_THRESHOLD must be a number',
    );
    expect(() => loadConfig({ env: { COHORT_ROUTING_THRESHOLD: '3' }, cwd })).toThrow(
      /routing\.threshold/,
    );
    expect(loadConfig({ env: { COHORT_KEEP_RUNS: '50' }, cwd }).keepRuns).toBe(50);
    expect(() => loadConfig({ env: { COHORT_KEEP_RUNS: '0' }, cwd })).toThrow(/keepRuns/);
    expect(() => loadConfig({ env: { COHORT_KEEP_RUNS: '2.5' }, cwd })).toThrow(/keepRuns/);
    expect(loadConfig({ env: { COHORT_KEEP_SESSIONS: '20' }, cwd }).keepSessions).toBe(20);
    expect(() => loadConfig({ env: { COHORT_KEEP_SESSIONS: '0' }, cwd })).toThrow(/keepSessions/);
    expect(() => loadConfig({ env: { COHORT_ROUTING: 'sometimes' }, cwd })).toThrow(
      'COHORT_ROUTING must be on or off, not "sometimes"',
    );
    expect(() => loadConfig({ env: { COHORT_CONFIG: 'missing.json' }, cwd })).toThrow(
      'Config file not found',
    );
    const dir = mkdtempSync(join(tmpdir(), 'cohort-config-'));
    writeFileSync(join(dir, 'cohort.config.json'), '{ nope');
    expect(() => loadConfig({ env: {}, cwd: dir })).toThrow('not valid JSON');
    // null crashed ("Cannot read properties of null"), a list was read as no settings.
    const notObjects: [string, string][] = [
      ['null', 'null'],
      ['[{"routing": {}}]', 'a list'],
      ['7', 'a number'],
    ];
    for (const [text, what] of notObjects) {
      writeFileSync(join(dir, 'cohort.config.json'), text);
      expect(() => loadConfig({ env: {}, cwd: dir })).toThrow(
        `cohort.config.json: the configuration must be a JSON object ({ "routing": { … }, … }), not ${what}.`,
      );
    }
    // A byte-order mark is read past.
    writeFileSync(join(dir, 'cohort.config.json'), '\uFEFF{"routing": {"threshold": 0.5}}');
    expect(loadConfig({ env: {}, cwd: dir }).routing.threshold).toBe(0.5);
  });

  it('refuses a duration a timer cannot hold, naming the setting and the longest allowed', () => {
    // Node fires a timer asked for more than 2^31-1 ms after 1 ms: 3,000,000 s killed every bash
    // command and failed every model call at once.
    const dir = mkdtempSync(join(tmpdir(), 'cohort-config-'));
    writeFileSync(join(dir, 'cohort.config.json'), '{"tools": {"bashTimeoutSeconds": 3000000}}');
    expect(() => loadConfig({ env: {}, cwd: dir })).toThrow(
      expect.objectContaining({
        code: 'invalid_input',
        message: expect.stringContaining(
          'tools.bashTimeoutSeconds in ./cohort.config.json: must be at most 2,147,483 seconds (about 24.8 days',
        ),
      }),
    );
    expect(() => loadConfig({ env: { COHORT_MODEL_TIMEOUT: '3000000' }, cwd })).toThrow(
      'COHORT_MODEL_TIMEOUT (model.timeoutSeconds): must be at most 2,147,483 seconds',
    );
    expect(() => loadConfig({ env: { TIMEOUT_LLM_CALL: '1e9' }, cwd })).toThrow(
      'TIMEOUT_LLM_CALL (research.timeoutLlmCall): must be at most 2,147,483 seconds',
    );
    // The per-tool-call limit: 600 s unless set, a positive number of seconds, named when wrong.
    expect(loadConfig({ env: {}, cwd }).tools.callTimeoutSeconds).toBe(600);
    expect(loadConfig({ env: { COHORT_TOOL_TIMEOUT: '90' }, cwd }).tools.callTimeoutSeconds).toBe(
      90,
    );
    expect(() => loadConfig({ env: { COHORT_TOOL_TIMEOUT: 'soon' }, cwd })).toThrow(
      'COHORT_TOOL_TIMEOUT must be a number, not "soon"',
    );
    expect(() => loadConfig({ env: { COHORT_TOOL_TIMEOUT: '0' }, cwd })).toThrow(
      /tools\.callTimeoutSeconds/,
    );
    expect(() => loadConfig({ env: { COHORT_TOOL_TIMEOUT: '3000000' }, cwd })).toThrow(
      'COHORT_TOOL_TIMEOUT (tools.callTimeoutSeconds): must be at most 2,147,483 seconds',
    );
    expect(loadConfig({ env: { COHORT_MODEL_TIMEOUT: '2147483' }, cwd }).model.timeoutSeconds).toBe(
      MAX_DURATION_SECONDS,
    );
  });

  it('names a setting it does not know instead of ignoring it, at any depth', () => {
    // A misspelt setting was dropped without a word, so the default quietly applied.
    const dir = mkdtempSync(join(tmpdir(), 'cohort-config-'));
    const cases: [string, string][] = [
      ['{"routng": {"threshold": 0.5}}', 'unknown setting "routng"; the settings are dataDir,'],
      [
        '{"routing": {"treshold": 0.5}}',
        'unknown setting "routing.treshold"; "routing" takes enabled, threshold,',
      ],
      ['{"model": {"tiers": {"fastest": "x"}}}', 'unknown setting "model.tiers.fastest"'],
    ];
    for (const [text, message] of cases) {
      writeFileSync(join(dir, 'cohort.config.json'), text);
      expect(() => loadConfig({ env: {}, cwd: dir })).toThrow(message);
    }
    // MCP servers are named by the user, and `$schema` is for editors: neither is a setting.
    writeFileSync(
      join(dir, 'cohort.config.json'),
      JSON.stringify({
        $schema: './cohort.schema.json',
        routing: { threshold: 0.5 },
        mcpServers: { 'my-files': { command: 'node', args: ['server.js'] } },
      }),
    );
    // The folder's guarded settings (its MCP servers) are the test's own: trusted.
    const config = loadConfig({ env: { COHORT_TRUST_PROJECT_CONFIG: '1' }, cwd: dir });
    expect(config.routing.threshold).toBe(0.5);
    expect(Object.keys(config.mcpServers)).toEqual(['my-files']);
  });

  it('names a setting given twice instead of keeping the last, in cohort.config.json and .mcp.json', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cohort-config-'));
    writeFileSync(
      join(dir, 'cohort.config.json'),
      '{"routing": {"threshold": 0.5, "threshold": 0.9}}',
    );
    expect(() => loadConfig({ env: {}, cwd: dir })).toThrow(
      'cohort.config.json: gives the key "threshold" twice in "routing"',
    );
    writeFileSync(join(dir, 'cohort.config.json'), '{}');
    writeFileSync(
      join(dir, '.mcp.json'),
      '{"mcpServers": {"a": {"command": "x"}}, "mcpServers": {}}',
    );
    expect(() => loadConfig({ env: {}, cwd: dir })).toThrow(
      '.mcp.json: gives the key "mcpServers" twice',
    );
  });

  it("refuses an MCP server name that would run into its tools' names (`__`, a trailing `_`)", () => {
    // Tools are named mcp__<server>__<tool>, and the rule "mcp__docs" covers every name that
    // starts "mcp__docs__": server "docs__admin"'s tools (mcp__docs__admin__drop) and server
    // "docs_"'s (mcp__docs___drop) ran without asking under an allow rule meant for "docs".
    const dir = mkdtempSync(join(tmpdir(), 'cohort-config-'));
    for (const name of ['docs__admin', 'docs_', '__docs']) {
      writeFileSync(
        join(dir, 'cohort.config.json'),
        JSON.stringify({ mcpServers: { [name]: { command: 'x' } } }),
      );
      const trusted = { COHORT_TRUST_PROJECT_CONFIG: '1' };
      expect(() => loadConfig({ env: trusted, cwd: dir }), name).toThrow(
        `mcpServers.${name} in ./cohort.config.json: an MCP server name must not hold "__" nor end with "_"`,
      );
    }
    // A record key's own message, where zod said only 'Invalid key in record'.
    writeFileSync(join(dir, 'cohort.config.json'), '{}');
    writeFileSync(
      join(dir, '.mcp.json'),
      JSON.stringify({ mcpServers: { 'a b': { command: 'x' } } }),
    );
    expect(() => loadConfig({ env: {}, cwd: dir })).toThrow(
      'mcpServers.a b in ./.mcp.json: an MCP server name is 1 to 64 letters, digits, "_" or "-"',
    );
    rmSync(join(dir, '.mcp.json'));
    for (const name of ['docs', 'my_docs', '_docs', 'docs-2']) {
      writeFileSync(
        join(dir, 'cohort.config.json'),
        JSON.stringify({ mcpServers: { [name]: { command: 'x' } } }),
      );
      const env = { COHORT_TRUST_PROJECT_CONFIG: '1' };
      expect(Object.keys(loadConfig({ env, cwd: dir }).mcpServers), name).toEqual([name]);
    }
  });

  it('names a deeply nested .mcp.json server instead of overflowing the stack', () => {
    // Found by an outside tester: every command said 'unexpected error: Maximum call stack size
    // exceeded' reading ${VAR} in a server definition nested 100,000 levels deep.
    const dir = mkdtempSync(join(tmpdir(), 'cohort-config-'));
    const depth = 100_000;
    writeFileSync(
      join(dir, '.mcp.json'),
      `{"mcpServers": ${'{"a": '.repeat(depth)}1${'}'.repeat(depth)}}`,
    );
    expect(() => loadConfig({ env: {}, cwd: dir })).toThrow(
      'mcpServers.a in ./.mcp.json: an MCP server needs "command" (stdio) or "url" (streamable HTTP)',
    );
    writeFileSync(
      join(dir, '.mcp.json'),
      '{"mcpServers": {"a": {"command": "${TOOL:-x}", "args": ["${ARG}"], "env": {"K": "${V}"}}}}',
    );
    const env = { ARG: 'one', V: 'two', COHORT_TRUST_PROJECT_MCP: '1' };
    expect(loadConfig({ env, cwd: dir }).mcpServers.a).toMatchObject({
      command: 'x',
      args: ['one'],
      env: { K: 'two' },
    });
  });

  it('takes CORS origins as browsers send them and names one that is not', () => {
    const origins = (value: string) =>
      loadConfig({ env: { COHORT_CORS_ORIGINS: value }, cwd }).server.corsOrigins;
    expect(origins('https://app.example.org, http://localhost:5173')).toEqual([
      'https://app.example.org',
      'http://localhost:5173',
    ]);
    expect(origins('*')).toEqual(['*']);
    // Each was accepted and then never matched an Origin header: CORS stayed shut in silence.
    for (const bad of ['not a url', 'app.example.org', 'https://app.example.org/', 'ftp://x.org']) {
      expect(() => origins(bad), bad).toThrow(
        /COHORT_CORS_ORIGINS \(server\.corsOrigins\.0\): takes "\*"/,
      );
    }
  });

  it('takes allowed hosts as Host headers name them, in lower case, and names one that is not', () => {
    const hosts = (value: string) =>
      loadConfig({ env: { COHORT_ALLOWED_HOSTS: value }, cwd }).server.allowedHosts;
    expect(hosts('Cohort.Example.org, 192.168.1.20, [fe80::1], box')).toEqual([
      'cohort.example.org',
      '192.168.1.20',
      '[fe80::1]',
      'box',
    ]);
    expect(hosts('*')).toEqual(['*']);
    expect(loadConfig({ env: {}, cwd }).server.allowedHosts).toEqual([]);
    // A scheme, a port or a path would never equal the name of a Host header.
    for (const bad of ['http://box', 'box:8787', 'box/x', 'a b', 'fe80::1']) {
      expect(() => hosts(bad), bad).toThrow(
        /COHORT_ALLOWED_HOSTS \(server\.allowedHosts\.0\): takes "\*" or host names/,
      );
    }
  });

  it('checks endpoint URLs when it reads them, not at the first call', () => {
    // OPENAI_BASE_URL=localhost:11434/v1 (no scheme) failed only after every retry of the first
    // model call ("Invalid URL"); DATABASE_URL=notaurl said "getaddrinfo ENOTFOUND base".
    expect(() => loadConfig({ env: { OPENAI_BASE_URL: 'notaurl' }, cwd })).toThrow(
      'OPENAI_BASE_URL (model.baseUrl): must be an http or https URL, such as http://localhost:11434/v1',
    );
    expect(() => loadConfig({ env: { OPENAI_BASE_URL: 'file:///etc/passwd' }, cwd })).toThrow(
      /OPENAI_BASE_URL \(model\.baseUrl\): must be an http or https URL/,
    );
    expect(() => loadConfig({ env: { DATABASE_URL: 'notaurl' }, cwd })).toThrow(
      'DATABASE_URL (databaseUrl): must be a PostgreSQL URL',
    );
    expect(() => loadConfig({ env: { TAVILY_BASE_URL: 'api.tavily.com' }, cwd })).toThrow(
      /TAVILY_BASE_URL \(tools\.tavilyBaseUrl\): must be an http or https URL/,
    );
    const good = loadConfig({
      env: {
        OPENAI_BASE_URL: 'http://localhost:11434/v1',
        DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/cohort',
      },
      cwd,
    });
    expect(good.model.baseUrl).toBe('http://localhost:11434/v1');
    expect(loadConfig({ env: { DATABASE_URL: '', OPENAI_BASE_URL: '' }, cwd })).toMatchObject({
      databaseUrl: '',
      model: { baseUrl: '' },
    });
  });

  it("words a refused setting in cohort's terms: the setting, what it was given, what it takes", () => {
    // zod's defaults ("Invalid input: expected number, received string", "Too big: expected
    // number to be <=1") said neither what was given nor, for a type, what the setting takes.
    const dir = mkdtempSync(join(tmpdir(), 'cohort-config-words-'));
    const file = join(dir, 'cohort.config.json');
    const refusal = (settings: unknown, env: Record<string, string> = {}) => {
      writeFileSync(file, JSON.stringify(settings));
      try {
        loadConfig({ env, cwd: dir, file });
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refusal({ routing: { threshold: 'high' } })).toBe(
      `Invalid configuration: routing.threshold in ${file} must be a number, not "high"`,
    );
    expect(refusal({ routing: { threshold: 5 } })).toBe(
      `Invalid configuration: routing.threshold in ${file} is 5; the limit is 1`,
    );
    expect(refusal({ keepRuns: 1.5 })).toBe(
      `Invalid configuration: keepRuns in ${file} must be a whole number, not 1.5`,
    );
    expect(refusal({ routing: { enabled: 'maybe' } })).toBe(
      `Invalid configuration: routing.enabled in ${file} must be true or false, not "maybe"`,
    );
    expect(refusal({ routing: { multiDomain: 'both' } })).toBe(
      `Invalid configuration: routing.multiDomain in ${file} must be one of "sequential", "parallel", not "both"`,
    );
    expect(refusal({ routing: 'on' })).toBe(
      `Invalid configuration: routing in ${file} must be an object, not "on"`,
    );
    expect(refusal({}, { COHORT_KEEP_RUNS: '-1' })).toBe(
      'Invalid configuration: COHORT_KEEP_RUNS (keepRuns) is -1; it must be over 0',
    );
    expect(refusal({}, { COHORT_LOG_LEVEL: 'loud' })).toBe(
      'Invalid configuration: COHORT_LOG_LEVEL (logLevel) must be one of "debug", "info", "warn", "error", "silent", not "loud"',
    );
  });

  it('names the file a refused value came from: the one found, the one named, .mcp.json', () => {
    // "routing.threshold must be a number" left the user to find which of cohort.config.json,
    // a --config file or the environment had said so.
    const dir = mkdtempSync(join(tmpdir(), 'cohort-config-source-'));
    const refusal = (options: Parameters<typeof loadConfig>[0]) => {
      try {
        loadConfig({ env: {}, cwd: dir, ...options });
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    writeFileSync(join(dir, 'cohort.config.json'), '{"routing": {"threshold": "high"}}');
    expect(refusal({})).toBe(
      'Invalid configuration: routing.threshold in ./cohort.config.json must be a number, not "high"',
    );
    // The environment's value is the one checked: it is named, not the file.
    expect(refusal({ env: { COHORT_ROUTING_THRESHOLD: '5' } })).toBe(
      'Invalid configuration: COHORT_ROUTING_THRESHOLD (routing.threshold) is 5; the limit is 1',
    );
    // An override (a command-line flag) keeps the setting's name alone.
    expect(refusal({ overrides: { routing: { threshold: 7 } } })).toBe(
      'Invalid configuration: routing.threshold is 7; the limit is 1',
    );
    writeFileSync(join(dir, 'prod.json'), '{"keepRuns": -2}');
    expect(refusal({ file: 'prod.json' })).toBe(
      'Invalid configuration: keepRuns in prod.json is -2; it must be over 0',
    );
    expect(refusal({ env: { COHORT_CONFIG: 'prod.json' } })).toMatch(/: keepRuns in prod\.json is/);
    rmSync(join(dir, 'cohort.config.json'));
    writeFileSync(join(dir, '.mcp.json'), '{"mcpServers": {"docs": {"command": 5}}}');
    expect(refusal({})).toMatch(
      /^Invalid configuration: mcpServers\.docs in \.\/\.mcp\.json: an MCP server needs /,
    );
  });

  it('names the environment variable that gave a refused value, not only the setting', () => {
    // COHORT_KEEP_RUNS=-1 said "keepRuns: Too small", a name the user who set the variable never
    // wrote; COHORT_PORT=abc was called PORT.
    const refusal = (env: Record<string, string>, overrides = {}) => {
      try {
        loadConfig({ env, cwd, overrides });
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refusal({ COHORT_KEEP_RUNS: '-1' })).toBe(
      'Invalid configuration: COHORT_KEEP_RUNS (keepRuns) is -1; it must be over 0',
    );
    expect(refusal({ COHORT_KEEP_SESSIONS: '2.5' })).toMatch(/^[^:]+: COHORT_KEEP_SESSIONS \(/);
    expect(refusal({ COHORT_PORT: 'abc' })).toBe('COHORT_PORT must be a number, not "abc"');
    expect(refusal({ PORT: '99999', COHORT_PORT: '1' })).toMatch(
      /: PORT \(server\.port\) is 99999; the limit is 65535$/,
    );
    expect(refusal({ COHORT_PORT: '99999' })).toMatch(
      /: COHORT_PORT \(server\.port\) is 99999; the limit is 65535$/,
    );
    expect(refusal({ COHORT_LOG_LEVEL: 'loud' })).toMatch(/: COHORT_LOG_LEVEL \(logLevel\)[: ]/);
    expect(refusal({ COHORT_MULTI_DOMAIN: 'x' })).toMatch(/COHORT_MULTI_DOMAIN \(routing\./);
    expect(refusal({ COHORT_ROUTING_THRESHOLD: '5' })).toMatch(/COHORT_ROUTING_THRESHOLD \(/);
    expect(refusal({ COHORT_MAX_STEPS: '0' })).toMatch(/COHORT_MAX_STEPS \(model\.maxSteps\)/);
    expect(refusal({ OPENAI_MODEL: '' })).toBe('accepted');
    expect(refusal({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toMatch(
      /: OTEL_EXPORTER_OTLP_PROTOCOL \(telemetry\.otlpProtocol\)[: ]/,
    );
    expect(refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: 'notaurl' })).toMatch(
      /: OTEL_EXPORTER_OTLP_ENDPOINT \(telemetry\.otlpEndpoint\)[: ]/,
    );
    expect(refusal({ OTEL_SERVICE_NAME: '' })).toMatch(/: OTEL_SERVICE_NAME \(/);
    // A flag that overrides the variable is named as the setting, as is a value from the file.
    expect(refusal({ COHORT_KEEP_RUNS: '5' }, { keepRuns: -1 })).toMatch(
      /: keepRuns is -1; it must be over 0$/,
    );
    // A flag that sets another setting of the same object leaves the variable's value its own.
    expect(refusal({ COHORT_MAX_STEPS: '0' }, { model: { name: 'm' } })).toMatch(
      /COHORT_MAX_STEPS \(model\.maxSteps\)/,
    );
    const dir = mkdtempSync(join(tmpdir(), 'cohort-config-'));
    writeFileSync(join(dir, 'cohort.config.json'), '{"model": {"baseUrl": "notaurl"}}');
    const file = join(dir, 'cohort.config.json');
    expect(() => loadConfig({ env: {}, cwd: dir, file })).toThrow(
      `Invalid configuration: model.baseUrl in ${file}: must be an http or https URL`,
    );
  });

  it('refuses a cohort.config.json or .mcp.json that is a named pipe or a folder', () => {
    // A FIFO named cohort.config.json made every command wait for a writer for ever.
    for (const name of ['cohort.config.json', '.mcp.json']) {
      const dir = mkdtempSync(join(tmpdir(), 'cohort-config-'));
      const stop = namedPipe(join(dir, name), '{}');
      try {
        expect(() => loadConfig({ env: {}, cwd: dir })).toThrow(
          `${join(dir, name)}: this configuration file is a named pipe (FIFO), not a file`,
        );
      } finally {
        stop();
      }
      const folder = mkdtempSync(join(tmpdir(), 'cohort-config-'));
      mkdirSync(join(folder, name));
      expect(() => loadConfig({ env: {}, cwd: folder })).toThrow(
        `${join(folder, name)}: this configuration file is a folder, not a file`,
      );
    }
  });

  it('names a COHORT_CONFIG that is a folder, and reads an empty one as unset', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cohort-config-'));
    writeFileSync(join(dir, 'cohort.config.json'), JSON.stringify({ routing: { threshold: 0.5 } }));
    // Empty means unset, as for every variable: it read the working directory itself ("EISDIR").
    expect(loadConfig({ env: { COHORT_CONFIG: '' }, cwd: dir }).routing.threshold).toBe(0.5);
    expect(() => loadConfig({ env: { COHORT_CONFIG: tmpdir() }, cwd: dir })).toThrow(
      `${tmpdir()}: this configuration file is a folder, not a file`,
    );
  });

  it('reads a named configuration only up to 1 MB: /dev/zero is an error, not a read without end', () => {
    // Found by an outside tester: --config /dev/zero grew the process until it ran out of memory.
    const cwd = mkdtempSync(join(tmpdir(), 'cohort-config-'));
    expect(() => loadConfig({ env: {}, cwd, file: '/dev/zero' })).toThrow(
      '/dev/zero: this configuration file holds more than 1 MB (or never ends)',
    );
    const file = join(cwd, 'settings.json');
    writeFileSync(file, JSON.stringify({ routing: { threshold: 0.5 } }));
    expect(loadConfig({ env: {}, cwd, file }).routing.threshold).toBe(0.5);
  });

  it('hides the files it read from the sandbox: the named file, the found one and .mcp.json', () => {
    // Found by an outside tester: the coding assistant read the API keys of `--config prod.json`.
    const cwd = mkdtempSync(join(tmpdir(), 'cohort-config-'));
    const named = join(cwd, 'prod.json');
    writeFileSync(named, '{}');
    writeFileSync(join(cwd, 'cohort.config.json'), '{}');
    writeFileSync(join(cwd, '.mcp.json'), '{}');
    const hidden = (options: Parameters<typeof loadConfig>[0]) =>
      loadConfig({ env: {}, cwd, ...options }).sandbox.denyRead.filter((entry) =>
        entry.startsWith(cwd),
      );
    expect(hidden({ file: named })).toEqual([named, join(cwd, '.mcp.json')]);
    expect(hidden({ env: { COHORT_CONFIG: 'prod.json' } })).toEqual([
      named,
      join(cwd, '.mcp.json'),
    ]);
    expect(hidden({})).toEqual([join(cwd, 'cohort.config.json'), join(cwd, '.mcp.json')]);
    // A pipe has nothing left to read once read: no entry for it.
    const pipe = join(cwd, 'settings.fifo');
    const stop = namedPipe(pipe, '{}');
    try {
      expect(hidden({ file: pipe })).toEqual([join(cwd, '.mcp.json')]);
    } finally {
      stop();
    }
  });

  it('refuses a new data folder or a config file whose name came with bytes that are not UTF-8', () => {
    // Found by an outside tester: `--data-dir $'d\xfe7'` made a new folder 'd\uFFFD7', a name the
    // user never gave, and `--config $'c\xff.json'` said only "not found".
    const cwd = mkdtempSync(join(tmpdir(), 'cohort-config-'));
    const dataDir = join(cwd, 'd\uFFFD7');
    expect(() => assertDataFolder(dataDir)).toThrow(
      /The data folder ".*d\uFFFD7" cannot be made: it holds U\+FFFD .* bytes that are not UTF-8/,
    );
    expect(existsSync(dataDir)).toBe(false);
    // One that exists (made before) is used as it is.
    mkdirSync(dataDir);
    expect(() => assertDataFolder(dataDir)).not.toThrow();
    expect(() => loadConfig({ env: {}, cwd, file: 'c\uFFFD.json' })).toThrow(
      /Config file not found: .*c\uFFFD\.json: it holds U\+FFFD/,
    );
  });

  it('reads only on and off as switches, not the names of Object.prototype', () => {
    // "constructor" read as a function ("expected boolean, received function"), "__proto__" as
    // no value at all.
    for (const value of ['constructor', '__proto__', 'toString']) {
      expect(() => loadConfig({ env: { COHORT_ROUTING: value }, cwd })).toThrow(
        `COHORT_ROUTING must be on or off, not ${JSON.stringify(value)}`,
      );
    }
  });
});
