import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/database.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';

/** What the database says about one session cookie. */
export interface SessionState {
  /** The user's session generation (0 until their sessions are first revoked). */
  generation: number;
  /** This very cookie was logged out. */
  revoked: boolean;
}

/** The stored id of a cookie: a digest, so the table never holds a usable session. */
export const revokedSessionId = (cookie: string): string =>
  createHash('sha256').update(cookie).digest('base64url');

/**
 * Server-side revocation of console sessions, in the main database so every node sees it: a
 * logged-out cookie's digest (until the cookie would have expired), and a per-user generation
 * that disabling or deleting the user raises. The session cookie stays self-contained and signed;
 * each console request makes one primary-key read here besides the user row it already reads.
 */
export class SessionStore {
  constructor(private readonly database: DatabaseHandle) {}

  /** The user's generation and whether `cookie` was logged out, in one round trip. */
  async stateOf(userId: number, cookie: string): Promise<SessionState> {
    const { rows } = await sql<{ generation: unknown; revoked: unknown }>`select
      (select generation from session_generations where user_id = ${userId}) as generation,
      (select 1 from revoked_sessions where id = ${revokedSessionId(cookie)}) as revoked`.execute(
      this.database.db,
    );
    const row = rows[0];
    return { generation: Number(row?.generation ?? 0), revoked: row?.revoked != null };
  }

  /** The user's current generation (what a new session is signed for). */
  async generationOf(userId: number): Promise<number> {
    const row = await this.database.db
      .selectFrom('session_generations')
      .select('generation')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(row?.generation ?? 0);
  }

  /** Logs one cookie out on every node, until `expiresAt` (seconds); drops rows past their time. */
  async revoke(cookie: string, expiresAt: number): Promise<void> {
    const { db } = this.database;
    const now = Math.floor(Date.now() / 1000);
    await db.deleteFrom('revoked_sessions').where('expires_at', '<', now).execute();
    try {
      await db
        .insertInto('revoked_sessions')
        .values({ id: revokedSessionId(cookie), expires_at: expiresAt })
        .execute();
    } catch (error) {
      // Logged out twice (two tabs): already revoked.
      if (!isUniqueViolation(error)) throw error;
    }
  }

  /** Ends every session of a user (disabled or deleted) on every node. */
  async revokeAllOf(userId: number): Promise<void> {
    const { db } = this.database;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const result = await db
        .updateTable('session_generations')
        .set((eb) => ({ generation: eb('generation', '+', 1) }))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0) return;
      try {
        await db.insertInto('session_generations').values({ user_id: userId, generation: 1 }).execute();
        return;
      } catch (error) {
        // Another node inserted the row first: raise it instead.
        if (!isUniqueViolation(error)) throw error;
      }
    }
  }
}
