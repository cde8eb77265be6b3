export { runLoop, runLoopStream } from './run-loop.js';
export { toolResultPart } from './tool-execution.js';
export { defineTool } from './define-tool.js';
export { mapWithConcurrency } from './map-with-concurrency.js';
export { emptyUsage, addUsage, toTokenUsage, tokenCount } from './usage.js';
export { stepCapMessage, budgetMessage, refusedToolMessage } from './errors.js';
export type {
  LoopTool,
  ToolContext,
  LoopBudget,
  LoopFinishReason,
  LoopToolCall,
  LoopCall,
  LoopResult,
  LoopEvent,
  LoopState,
  LoopOptions,
  ToolAuthorization,
  PendingToolCall,
} from './types.js';
