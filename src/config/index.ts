export * from './config.js';
export * from './frontmatter.js';
