import { MAX_HISTORY_MESSAGES, type Message } from '../schema/index.js';
import type { SessionRepo } from '../store/index.js';

/** The context skill (spec R4): a session's history, persisted in the store. */
export interface ContextSkill {
  readonly name: 'context';
  readonly description: string;
  getHistory(sessionId: string, limit?: number): Promise<Message[]>;
  saveMessage(sessionId: string, message: Message): Promise<void>;
  /** Saves a whole turn (the question and its answer) together, in order, or nothing. */
  saveTurn(sessionId: string, messages: readonly Message[]): Promise<void>;
}

/**
 * Creates the context skill over the store's sessions. The anonymous session keeps no history.
 *
 * @example
 * const context = createContextSkill(store.sessions);
 * await context.saveMessage(id, { role: 'user', content: 'What is a topic?' });
 */
export function createContextSkill(sessions: SessionRepo): ContextSkill {
  return {
    name: 'context',
    description: 'Reads and saves the conversation history of a session.',
    getHistory: (sessionId, limit = MAX_HISTORY_MESSAGES) =>
      sessionId === 'anonymous' ? Promise.resolve([]) : sessions.history(sessionId, limit),
    saveMessage: (sessionId, message) =>
      sessionId === 'anonymous' ? Promise.resolve() : sessions.save(sessionId, message),
    saveTurn: (sessionId, messages) =>
      sessionId === 'anonymous' ? Promise.resolve() : sessions.saveTurn(sessionId, messages),
  };
}
