export * from './cohort-error.js';
// The wording of a refused value, for the messages written by hand (flags, variables, options).
export { oneOf, refusedValue } from '../schema/issue-message.js';
export * from './describe-cause.js';
export * from './clip-text.js';
export * from './format-number.js';
