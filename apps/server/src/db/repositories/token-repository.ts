import {
  type Insertable,
  type Kysely,
  type Selectable,
  sql,
  type Transaction,
  type Updateable,
} from 'kysely';
import type { DatabaseHandle } from '../database.ts';
import { escapeLike } from '../like-pattern.ts';
import type { Database, TokenTable } from '../schema.ts';
import { deletedAtSeconds, deletedAtValue } from '../soft-delete.ts';

type Executor = Kysely<Database> | Transaction<Database>;
type StoredToken = Selectable<TokenTable>;

/**
 * A token row with its 0/1 flags as booleans and `allow_ips` never null. `key` is the stored
 * 48-character key WITHOUT the `sk-` prefix clients see.
 */
export interface TokenRow {
  id: number;
  user_id: number;
  key: string;
  status: number;
  name: string;
  created_time: number;
  accessed_time: number;
  expired_time: number;
  remain_quota: number;
  used_quota: number;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  model_limits: string;
  allow_ips: string;
  group: string;
  deleted_at: number | null;
}

/** The fields an update may set. */
export type TokenChanges = Partial<
  Pick<
    TokenRow,
    | 'name'
    | 'status'
    | 'expired_time'
    | 'remain_quota'
    | 'unlimited_quota'
    | 'model_limits_enabled'
    | 'model_limits'
    | 'allow_ips'
    | 'group'
    | 'accessed_time'
  >
>;

/** What creating a token needs; every other field takes the column default. */
export type NewToken = Pick<TokenRow, 'user_id' | 'key' | 'name'> &
  Omit<TokenChanges, 'name' | 'accessed_time'>;

/** Filters of a user's token search; an empty or missing filter matches everything. */
export interface TokenSearch {
  /** Substring of the token name. */
  name?: string;
  /** Substring of the stored key (without `sk-`); `*` runs match anything (masked keys). */
  key?: string;
  offset: number;
  limit: number;
}

function toRow(stored: StoredToken): TokenRow {
  return {
    id: Number(stored.id),
    user_id: Number(stored.user_id),
    key: stored.key,
    status: Number(stored.status),
    name: stored.name,
    created_time: Number(stored.created_time),
    accessed_time: Number(stored.accessed_time),
    expired_time: Number(stored.expired_time),
    remain_quota: Number(stored.remain_quota),
    used_quota: Number(stored.used_quota),
    unlimited_quota: Number(stored.unlimited_quota) === 1,
    model_limits_enabled: Number(stored.model_limits_enabled) === 1,
    model_limits: stored.model_limits,
    allow_ips: stored.allow_ips ?? '',
    group: stored.group,
    deleted_at: deletedAtSeconds(stored.deleted_at),
  };
}

/** Row values as columns: flags become 0/1 (Kysely leaves undefined fields out). */
function toColumns(changes: TokenChanges): Updateable<TokenTable> {
  const { unlimited_quota, model_limits_enabled, ...rest } = changes;
  const columns: Updateable<TokenTable> = { ...rest };
  if (unlimited_quota !== undefined) columns.unlimited_quota = unlimited_quota ? 1 : 0;
  if (model_limits_enabled !== undefined) columns.model_limits_enabled = model_limits_enabled ? 1 : 0;
  return columns;
}

/**
 * `column LIKE '%text%'` with `text` matched literally. `!` is the escape character because
 * SQLite has no default LIKE escape and PostgreSQL and MySQL disagree on backslashes in string
 * literals. Case sensitivity follows the database (SQLite's LIKE ignores ASCII case).
 */
function likeContains(column: 'name', text: string) {
  return sql<boolean>`${sql.ref(column)} like ${`%${escapeLike(text)}%`} escape '!'`;
}

/**
 * Key search: like `likeContains`, except that a run of `*` (never part of a key) matches
 * anything, so a masked key copied from a list (`abcd**********wxyz`) finds its token.
 */
function likeKey(text: string) {
  const pattern = text.split(/\*+/).map(escapeLike).join('%');
  return sql<boolean>`${sql.ref('key')} like ${`%${pattern}%`} escape '!'`;
}

/**
 * The tokens table (relay API keys). Console methods are scoped to the owner (`*Owned`,
 * `*ByUser`); `findById` and `findByKey` serve the relay and its token cache.
 */
export class TokenRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  protected get db() {
    return this.handle.db;
  }

  /**
   * The token with this id, INCLUDING soft-deleted rows (check `deleted_at`): the relay's token
   * cache calls it when the change bus announces `tokens:<id>` to refresh or evict its entry.
   */
  async findById(id: number, executor: Executor = this.db): Promise<TokenRow | undefined> {
    const stored = await executor.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirst();
    return stored ? toRow(stored) : undefined;
  }

  /**
   * The live (not deleted) token with this stored key — 48 characters, WITHOUT the `sk-`
   * prefix. Served by the unique index on `key`; status, expiry and quota are the caller's checks.
   */
  async findByKey(key: string, executor: Executor = this.db): Promise<TokenRow | undefined> {
    const stored = await executor
      .selectFrom('tokens')
      .selectAll()
      .where('key', '=', key)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return stored ? toRow(stored) : undefined;
  }

  /** The live token `id` if it belongs to `userId`; undefined for other users' or deleted tokens. */
  async findOwned(userId: number, id: number, executor: Executor = this.db): Promise<TokenRow | undefined> {
    const stored = await executor
      .selectFrom('tokens')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return stored ? toRow(stored) : undefined;
  }

  /** One page of a user's live tokens, newest first. */
  async listByUser(userId: number, paging: { offset: number; limit: number }): Promise<TokenRow[]> {
    return this.searchByUser(userId, paging);
  }

  /** One page of a user's live tokens matching every given filter, newest first. */
  async searchByUser(userId: number, search: TokenSearch): Promise<TokenRow[]> {
    let query = this.db.selectFrom('tokens').where('user_id', '=', userId).where('deleted_at', 'is', null);
    if (search.name) query = query.where(likeContains('name', search.name));
    if (search.key) query = query.where(likeKey(search.key));
    const rows = await query
      .selectAll()
      .orderBy('id', 'desc')
      .limit(search.limit)
      .offset(search.offset)
      .execute();
    return rows.map(toRow);
  }

  /** Inserts one token and returns its id (RETURNING where supported, insertId on MySQL). */
  async create(token: NewToken, executor: Executor = this.db): Promise<number> {
    const { user_id, key, ...fields } = token;
    const now = Math.floor(Date.now() / 1000);
    const values: Insertable<TokenTable> = {
      ...toColumns(fields),
      user_id,
      key,
      created_time: now,
      accessed_time: now,
    };
    if (this.handle.kind === 'mysql') {
      const result = await executor.insertInto('tokens').values(values).executeTakeFirstOrThrow();
      return Number(result.insertId);
    }
    const row = await executor.insertInto('tokens').values(values).returning('id').executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /** Inserts several tokens in one transaction (all or none) and returns their ids in order. */
  async createMany(tokens: NewToken[]): Promise<number[]> {
    return this.db.transaction().execute(async (trx) => {
      const ids: number[] = [];
      for (const token of tokens) ids.push(await this.create(token, trx));
      return ids;
    });
  }

  /** Sets a token's status (the relay persists "expired" and "exhausted" when it finds them). */
  async markStatus(id: number, status: number): Promise<void> {
    await this.db.updateTable('tokens').set({ status }).where('id', '=', id).execute();
  }

  /** Changes a live token of `userId`; false when it is not theirs or is deleted. */
  async updateOwned(
    userId: number,
    id: number,
    changes: TokenChanges,
    executor: Executor = this.db,
  ): Promise<boolean> {
    const columns = toColumns(changes);
    if (Object.values(columns).every((value) => value === undefined)) return true;
    const result = await executor
      .updateTable('tokens')
      .set(columns)
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Soft-deletes a live token of `userId` (sets `deleted_at`); false when there was none. */
  async softDeleteOwned(userId: number, id: number): Promise<boolean> {
    const result = await this.db
      .updateTable('tokens')
      .set({
        deleted_at: deletedAtValue(
          this.handle.deletedAt.tokens,
          this.handle.kind,
          Math.floor(Date.now() / 1000),
        ),
      })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
