import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import type { Message } from '../schema/index.js';
import { createLogger, type Logger } from '../telemetry/index.js';
import type { Db } from './db.js';
import { appendLinesDurably, completeLines, removeFilesDurably } from './durable-file.js';
import { insertRows } from './insert-rows.js';
import { setMetaValue } from './meta-repo.js';
import { newestWithin, storedMessage } from './session-repo.js';
import { MESSAGE_COLUMNS } from './turn-writer.js';
import { lazySchema } from '../schema/lazy-schema.js';

/**
 * The session journal of an embedded store's data folder: the turns of sessions the engine holds
 * no message of, saved by processes that answered from the sealed start cache without opening the
 * engine (a `cohort ask --session` whose session the seal does not list, see
 * start-cache-seal.ts), one JSON line a turn, appended and flushed to disk before the answer is
 * shown. Such a session's history is its turns in the journal. The next process that opens the
 * engine writes every turn into the store, in order (`foldSessionJournal`), before anything reads
 * it, then deletes the file; from then on the engine holds those sessions.
 */
export const SESSION_JOURNAL_FILE = 'cohort-session-journal.jsonl';

/**
 * A start does not read a journal larger than this: it opens the engine, which folds the journal
 * in. Bounds what a start parses (some 500 turns of extractive answers).
 */
export const MAX_SESSION_JOURNAL_BYTES = 1024 * 1024;

/**
 * The `meta` key of the last turn folded in, written in the fold's transaction: a process killed
 * between that commit and the journal's deletion leaves turns that the next fold skips, so none is
 * stored twice.
 */
const FOLDED_KEY = 'session_journal_folded';

/** One journal line: a turn (a question and its answer) as `SessionRepo.saveTurn` stores it. */
const JournalTurn = lazySchema(() =>
  z.object({
    turn: z.string().min(1),
    sessionId: z.string().min(1),
    messages: z
      .array(
        z.object({
          role: z.enum(['user', 'assistant']),
          content: z.string(),
          agentName: z.string().optional(),
          timestamp: z.string(),
        }),
      )
      .min(1),
  }),
);
type JournalTurn = z.infer<typeof JournalTurn>;

/** A data folder's session journal as one start reads and appends it (see {@link openSessionJournal}). */
export interface SessionJournal {
  /** As `SessionRepo.history`: the session's last `limit` messages in the journal, oldest first. */
  history(sessionId: string, limit: number, maxBytes?: number): Message[];
  /** As `SessionRepo.saveTurn`: appends the turn, flushed to disk when this returns. */
  saveTurn(sessionId: string, messages: readonly Message[]): void;
}

/**
 * The session journal of `dataDir`, read once, for a start that holds the folder lock; undefined
 * when the file is larger than {@link MAX_SESSION_JOURNAL_BYTES}.
 *
 * @example
 * const journal = openSessionJournal('.cohort');
 * journal?.saveTurn(id, [{ role: 'user', content: q }, { role: 'assistant', content: a }]);
 */
export function openSessionJournal(dataDir: string): SessionJournal | undefined {
  let size = 0;
  try {
    size = statSync(join(dataDir, SESSION_JOURNAL_FILE)).size;
  } catch {
    // No journal yet.
  }
  if (size > MAX_SESSION_JOURNAL_BYTES) return undefined;
  const turns = readSessionJournal(dataDir);
  return {
    history(sessionId, limit, maxBytes) {
      const messages = turns
        .filter((turn) => turn.sessionId === sessionId)
        .flatMap((turn) => turn.messages.map(asMessage));
      return newestWithin(messages.slice(Math.max(0, messages.length - limit)), maxBytes);
    },
    saveTurn(sessionId, messages) {
      if (messages.length === 0) return;
      const turn: JournalTurn = {
        turn: randomUUID(),
        sessionId,
        messages: messages.map((message) => {
          const stored = storedMessage(message, message.timestamp ?? new Date());
          return { ...stored, timestamp: stored.timestamp.toISOString() };
        }),
      };
      appendLinesDurably(dataDir, SESSION_JOURNAL_FILE, [JSON.stringify(turn) + '\n']);
      turns.push(turn);
    },
  };
}

const asMessage = (message: JournalTurn['messages'][number]): Message => ({
  role: message.role,
  content: message.content,
  timestamp: new Date(message.timestamp),
  ...(message.agentName ? { agentName: message.agentName } : {}),
});

/**
 * The turns in the journal of `dataDir`, oldest first; a line that is unfinished or not a turn
 * (the file is on disk, so anything may be in it) is skipped.
 */
export function readSessionJournal(dataDir: string): JournalTurn[] {
  const turns: JournalTurn[] = [];
  for (const line of completeLines(dataDir, SESSION_JOURNAL_FILE)) {
    try {
      const parsed = JournalTurn.safeParse(JSON.parse(line));
      if (parsed.success) turns.push(parsed.data);
    } catch {
      // Not JSON: skipped.
    }
  }
  return turns;
}

const defaultLogger = createLogger({ level: 'warn' });

/**
 * Writes the journal's turns into the store's messages, in order, in one transaction with the
 * mark of the last one (see {@link FOLDED_KEY}), then deletes the journal. Call it with the folder
 * lock held, after the engine opened and before anything reads the store. When the engine refuses
 * the write, the journal is kept for the next open and the failure logged: the store still opens.
 * Returns how many turns are now in the store.
 *
 * @example
 * await foldSessionJournal('.cohort', store.db);
 */
export async function foldSessionJournal(
  dataDir: string,
  db: Db,
  logger: Logger = defaultLogger,
): Promise<number> {
  const turns = readSessionJournal(dataDir);
  const last = turns.at(-1);
  let folded = 0;
  if (last) {
    try {
      await db.transaction(async (tx) => {
        const { rows } = await tx.query<{ turn: string }>(
          "SELECT value #>> '{}' AS turn FROM meta WHERE key = $1",
          [FOLDED_KEY],
        );
        const done = turns.findIndex((turn) => turn.turn === rows[0]?.turn);
        const rest = turns.slice(done + 1);
        await insertRows(
          tx,
          'messages',
          MESSAGE_COLUMNS,
          rest.flatMap((turn) =>
            turn.messages.map((message) => [
              turn.sessionId,
              message.role,
              message.content,
              message.agentName ?? null,
              message.timestamp,
            ]),
          ),
        );
        await setMetaValue(tx, FOLDED_KEY, last.turn);
        folded = rest.length;
      });
    } catch (cause) {
      logger.warn('session_journal_not_folded', {
        cause: cause instanceof Error ? cause.message : String(cause),
      });
      return 0;
    }
  }
  removeFilesDurably(dataDir, [SESSION_JOURNAL_FILE]);
  return folded;
}
