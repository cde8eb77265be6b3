export { nextTurn } from './next-turn.js';
