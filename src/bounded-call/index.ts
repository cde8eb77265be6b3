export {
  boundedCall,
  settleBounded,
  attemptSignal,
  defaultFailure,
  formatDuration,
  sleep,
  DEFAULT_RETRY_DELAY_MS,
  type AttemptSignal,
  type Bounded,
  type BoundedCallOptions,
  type FailureContext,
} from './bounded-call.js';
