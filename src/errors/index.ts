export * from './cohort-error.js';
