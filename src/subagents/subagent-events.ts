import type { TokenUsage } from '../schema/index.js';
import type { SubagentReport } from './subagent-report.js';

/** How a spawn ended (or `running` while it runs). */
export type SubagentStatus =
  'running' | 'completed' | 'budget_exceeded' | 'timeout' | 'failed' | 'aborted';

/** The outcome of one spawn, reported per subagent and rolled up to the parent. */
export interface SubagentResult {
  id: string;
  type: string;
  /** The tier or model id it ran on. */
  model: string;
  status: Exclude<SubagentStatus, 'running'>;
  /** The capped report, exactly as the parent's context received it. */
  report: SubagentReport;
  /** True when the report was cut to fit `subagents.summaryMaxTokens`. */
  truncated: boolean;
  usage: TokenUsage;
  turns: number;
  durationMs: number;
  /** Why it stopped early, when it did. */
  stopMessage?: string;
}

/** What a spawn reports while it runs (the CLI's live tree is drawn from these). */
export type SubagentEvent =
  | {
      type: 'subagent-start';
      id: string;
      parentId?: string;
      agentType: string;
      prompt: string;
      model: string;
      depth: number;
      at: number;
    }
  | {
      type: 'subagent-progress';
      id: string;
      turns: number;
      tokens: number;
      tool?: string;
      at: number;
    }
  | { type: 'subagent-end'; id: string; result: SubagentResult; at: number };
