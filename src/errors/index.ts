export * from './cohort-error.js';
export * from './describe-cause.js';
export * from './clip-text.js';
export * from './format-number.js';
