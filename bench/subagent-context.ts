/**
 * Context isolation of subagents: on a scripted exploration task where the explorer reads 50
 * generated files, how many tokens reach the main agent's context compared with the tokens the
 * explorer processed. Target: main context after the spawn < 5% of the explorer's tokens.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { loadConfig } from '../src/config/index.js';
import { runCodingAgent } from '../src/coding/index.js';
import { estimateTokens } from '../src/subagents/index.js';
import { createScriptedModel, RECORDED } from '../src/test/scripted-model.js';

const FILES = 50;
const READS_PER_TURN = 10;

/** A plausible source file of about 2 KB. */
function sourceFile(index: number): string {
  const lines = [
    `// module ${index}: request handling helpers`,
    `import { config } from '../config/index.js';`,
    '',
  ];
  for (let fn = 0; fn < 8; fn++) {
    lines.push(
      `/** Handles case ${fn} of module ${index}. */`,
      `export function handle${index}_${fn}(input: string, retries = ${fn + 1}): string {`,
      `  const trimmed = input.trim().slice(0, config.maxLength ?? ${100 + fn});`,
      `  return retries > 0 ? trimmed.toUpperCase() : trimmed;`,
      '}',
    );
  }
  if (index === 37) lines.push('export const RETRY_POLICY = { attempts: 3, backoffMs: 250 };');
  return lines.join('\n') + '\n';
}

/** Tokens a call sends: the messages and the tool definitions. */
const promptTokens = (options: LanguageModelV3CallOptions) =>
  estimateTokens(JSON.stringify({ prompt: options.prompt, tools: options.tools ?? [] }));

/** Runs the scripted exploration and returns the context figures. */
export async function benchSubagentContext(): Promise<Record<string, number | string>> {
  const root = mkdtempSync(join(tmpdir(), 'cohort-bench-subagent-'));
  try {
    const paths = Array.from(
      { length: FILES },
      (_, i) => `src/module-${String(i).padStart(2, '0')}.ts`,
    );
    mkdirSync(join(root, 'src'));
    paths.forEach((path, i) => writeFileSync(join(root, path), sourceFile(i)));

    const main = createScriptedModel(
      (call, options) =>
        call === 0
          ? {
              toolCalls: [
                {
                  toolName: 'task',
                  input: {
                    type: 'explorer',
                    prompt: 'Find where the retry policy is defined and what it sets.',
                  },
                },
              ],
              usage: { inputTokens: promptTokens(options), outputTokens: 40 },
            }
          : {
              text: 'The retry policy is RETRY_POLICY in src/module-37.ts: 3 attempts, 250 ms backoff.',
              usage: { inputTokens: promptTokens(options), outputTokens: 30 },
            },
      RECORDED,
    );
    const readTurns = Math.ceil(FILES / READS_PER_TURN);
    const explorer = createScriptedModel((call, options) => {
      const usage = { inputTokens: promptTokens(options), outputTokens: 60 };
      if (call === 0)
        return { toolCalls: [{ toolName: 'glob', input: { pattern: 'src/**/*.ts' } }], usage };
      if (call <= readTurns) {
        const batch = paths.slice((call - 1) * READS_PER_TURN, call * READS_PER_TURN);
        return { toolCalls: batch.map((path) => ({ toolName: 'read', input: { path } })), usage };
      }
      return {
        text: JSON.stringify({
          summary:
            'The retry policy is RETRY_POLICY in src/module-37.ts: { attempts: 3, backoffMs: 250 }. No other module defines retries.',
          findings: ['src/module-37.ts:44 exports RETRY_POLICY = { attempts: 3, backoffMs: 250 }'],
          sources: [],
          files: ['src/module-37.ts'],
        }),
        usage,
      };
    }, RECORDED);

    const result = await runCodingAgent({
      request: 'Where is the retry policy defined?',
      workspace: root,
      home: join(root, 'no-home'),
      config: loadConfig({ env: {}, cwd: root }),
      model: (ref) => (ref === 'fast' ? explorer : main),
    });
    const spawn = result.subagents[0];
    if (!spawn || spawn.status !== 'completed')
      throw new Error(`the explorer did not complete (${spawn?.status ?? 'not spawned'})`);
    const before = main.calls[0] ? promptTokens(main.calls[0]) : 0;
    const after = main.calls[1] ? promptTokens(main.calls[1]) : 0;
    const explorerProcessed = spawn.usage.totalTokens;
    const readBytes = paths.reduce((sum, _path, i) => sum + sourceFile(i).length, 0);
    return {
      files_read_by_explorer: FILES,
      explorer_turns: spawn.turns,
      explorer_tokens_processed: explorerProcessed,
      file_content_tokens: estimateTokens('x'.repeat(readBytes)),
      main_context_before_spawn_tokens: before,
      main_context_after_spawn_tokens: after,
      added_by_spawn_tokens: after - before,
      ratio_main_context_to_explorer: `${((after / explorerProcessed) * 100).toFixed(2)}% (target < 5%)`,
      ratio_added_to_explorer: `${(((after - before) / explorerProcessed) * 100).toFixed(2)}%`,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
