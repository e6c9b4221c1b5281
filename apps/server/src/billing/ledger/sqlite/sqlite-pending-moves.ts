import type SQLite from 'better-sqlite3';
import type { GroupParticipant } from './sqlite-group-commit.ts';

interface UserMove {
  back: number;
  charged: number;
  requests: number;
}

interface TokenMove {
  back: number;
  charged: number;
  accessedAt: number;
}

const prepareAll = (db: SQLite.Database) => ({
  user: db.prepare(
    'UPDATE users SET quota = quota + ?, used_quota = used_quota + ?, request_count = request_count + ? WHERE id = ?',
  ),
  token: db.prepare(
    'UPDATE tokens SET remain_quota = remain_quota + ?, used_quota = used_quota + ?, accessed_time = ? WHERE id = ?',
  ),
  channel: db.prepare('UPDATE channels SET used_quota = used_quota + ? WHERE id = ?'),
});

/**
 * The balance moves and counters of the settlements in one SQLite transaction (the group commit's),
 * added up per user, token and channel and written as one UPDATE per row before the commit,
 * instead of three UPDATEs per settlement: under load one commit carries a few dozen settlements,
 * most of them of the same few users, tokens and channels. The additions commute, so anything else
 * in the transaction that only adds (refunds, the settlement writer's counters) needs nothing;
 * whatever reads a balance, or holds against one and finds it short, writes them first (`write`),
 * so it sees every settlement before it. A transaction that rolls back forgets them with its pieces.
 */
export class SqlitePendingMoves implements GroupParticipant {
  private readonly users = new Map<number, UserMove>();
  private readonly tokens = new Map<number, TokenMove>();
  private readonly channels = new Map<number, number>();
  private statements: ReturnType<typeof prepareAll> | undefined;

  constructor(private readonly db: SQLite.Database) {}

  /** Whether any move waits to be written. */
  get isEmpty(): boolean {
    return this.users.size === 0 && this.tokens.size === 0 && this.channels.size === 0;
  }

  /** One settled request of `userId`: `back` returns to its balance, `charged` adds to its used quota. */
  addUser(userId: number, back: number, charged: number): void {
    const move = this.users.get(userId);
    if (move === undefined) this.users.set(userId, { back, charged, requests: 1 });
    else {
      move.back += back;
      move.charged += charged;
      move.requests++;
    }
  }

  /** A settled request's token: `back` to its remaining quota, `charged` to its used quota, used at `accessedAt`. */
  addToken(tokenId: number, back: number, charged: number, accessedAt: number): void {
    const move = this.tokens.get(tokenId);
    if (move === undefined) this.tokens.set(tokenId, { back, charged, accessedAt });
    else {
      move.back += back;
      move.charged += charged;
      if (accessedAt > move.accessedAt) move.accessedAt = accessedAt;
    }
  }

  /** Quota charged through `channelId`. */
  addChannel(channelId: number, charged: number): void {
    this.channels.set(channelId, (this.channels.get(channelId) ?? 0) + charged);
  }

  /** Writes every pending move (inside the running transaction) and forgets them. */
  write(): void {
    if (this.isEmpty) return;
    this.statements ??= prepareAll(this.db);
    const s = this.statements;
    for (const [id, move] of this.users) s.user.run(move.back, move.charged, move.requests, id);
    for (const [id, move] of this.tokens) s.token.run(move.back, move.charged, move.accessedAt, id);
    for (const [id, charged] of this.channels) s.channel.run(charged, id);
    this.forget();
  }

  beforeCommit(): void {
    this.write();
  }

  rolledBack(): void {
    this.forget();
  }

  private forget(): void {
    this.users.clear();
    this.tokens.clear();
    this.channels.clear();
  }
}
