import {
  type Insertable,
  type Kysely,
  type Selectable,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
  type Transaction,
  type Updateable,
} from 'kysely';
import type { DatabaseHandle } from '../database.ts';
import { containsIgnoringCase, escapeLike } from '../like-pattern.ts';
import type { AbilityTable, ChannelTable, Database } from '../schema.ts';

export type ChannelRow = Selectable<ChannelTable>;
/** A channel row without its key: what lists and the console read. */
export type ChannelSummary = Omit<ChannelRow, 'key'>;
export type NewChannel = Insertable<ChannelTable>;
export type ChannelChanges = Updateable<ChannelTable>;
type Executor = Kysely<Database> | Transaction<Database>;

/** Every channel column except `key`. */
const SUMMARY_COLUMNS = [
  'id',
  'type',
  'openai_organization',
  'test_model',
  'status',
  'name',
  'weight',
  'created_time',
  'test_time',
  'response_time',
  'base_url',
  'other',
  'balance',
  'balance_updated_time',
  'models',
  'group',
  'used_quota',
  'model_mapping',
  'status_code_mapping',
  'priority',
  'auto_ban',
  'other_info',
  'tag',
  'setting',
  'param_override',
  'header_override',
  'max_input_tokens',
] as const satisfies ReadonlyArray<keyof ChannelTable>;

/** What the relay's channel index needs of an enabled channel (key included). */
const INDEX_COLUMNS = [
  'id',
  'type',
  'key',
  'name',
  'base_url',
  'other',
  'models',
  'group',
  'priority',
  'weight',
  'tag',
  'model_mapping',
  'status_code_mapping',
  'setting',
  'param_override',
  'header_override',
  'openai_organization',
  'auto_ban',
] as const satisfies ReadonlyArray<keyof ChannelTable>;

/** An enabled channel as the relay's in-memory index reads it. */
export type IndexedChannel = Pick<ChannelRow, (typeof INDEX_COLUMNS)[number]>;

/** Filters of the console's channel search, combined with AND. */
export interface ChannelFilter {
  /** Channel id (exact), or a substring of the name or the key (ASCII case ignored). */
  keyword?: string;
  /** One of the channel's comma-separated groups (exact). */
  group?: string;
  /** A substring of the channel's models (ASCII case ignored). */
  model?: string;
}

export interface ChannelListOptions {
  filter?: ChannelFilter;
  /** 'priority': priority desc then id desc; 'id': id desc. */
  order: 'priority' | 'id';
  offset: number;
  limit: number;
}

/** Fields whose change requires rebuilding the channel's abilities rows. */
const ABILITY_FIELDS = ['models', 'group', 'priority', 'weight', 'tag'] as const;
/** Ability rows per INSERT statement (7 parameters each, far below every driver's limit). */
const ABILITY_CHUNK = 100;
const INT32_MAX = 2_147_483_647;
/** Ids per `IN (...)` list in bulk channel operations. */
const ID_CHUNK = 500;

/** Splits a comma list: trimmed, empty entries dropped, duplicates removed (first kept). */
export function splitCommaList(value: string | null | undefined): string[] {
  if (!value) return [];
  return [...new Set(value.split(',').map((item) => item.trim()))].filter((item) => item !== '');
}

/** The abilities rows of a channel: the cross product of its groups × models. */
export function abilityRowsOf(
  channel: Pick<ChannelRow, 'id' | 'models' | 'group' | 'status' | 'priority' | 'weight' | 'tag'>,
): Array<Selectable<AbilityTable>> {
  const models = splitCommaList(channel.models);
  const groups = splitCommaList(channel.group);
  const tag = channel.tag ? channel.tag : null;
  const rows: Array<Selectable<AbilityTable>> = [];
  for (const group of groups) {
    for (const model of models) {
      rows.push({
        group,
        model,
        channel_id: channel.id,
        enabled: channel.status === 1 ? 1 : 0,
        priority: channel.priority,
        weight: channel.weight,
        tag,
      });
    }
  }
  return rows;
}

/** True when the row has no tag ('' and NULL alike: other writers may store either). */
const untagged = sql<SqlBool>`(${sql.ref('tag')} is null or ${sql.ref('tag')} = '')`;

/**
 * The channels table and its abilities index (group × model × channel, the relay's routing table).
 * Every write that changes what a channel serves rebuilds its abilities rows in the same
 * transaction, so the two tables never disagree.
 */
export class ChannelRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  protected get db() {
    return this.handle.db;
  }

  /** One channel WITH its key (for the relay and the root's key read); undefined if absent. */
  async findById(id: number, executor: Executor = this.db): Promise<ChannelRow | undefined> {
    if (!Number.isInteger(id) || id < 1 || id > INT32_MAX) return undefined;
    return executor.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Every enabled channel (status 1) with the fields routing needs, key included, by id.
   * The relay's in-memory channel index is rebuilt from this on every `channels` change.
   */
  async listEnabledForIndex(): Promise<IndexedChannel[]> {
    return this.db
      .selectFrom('channels')
      .select(INDEX_COLUMNS)
      .where('status', '=', 1)
      .orderBy('id')
      .execute();
  }

  private filtered(filter: ChannelFilter = {}): SelectQueryBuilder<Database, 'channels', object> {
    let query = this.db.selectFrom('channels') as SelectQueryBuilder<Database, 'channels', object>;
    const keyword = filter.keyword?.trim();
    if (keyword) {
      const id = /^\d{1,10}$/.test(keyword) && Number(keyword) <= INT32_MAX ? Number(keyword) : null;
      query = query.where((eb) =>
        eb.or([
          ...(id !== null ? [eb('id', '=', id)] : []),
          containsIgnoringCase('name', keyword),
          containsIgnoringCase('key', keyword),
        ]),
      );
    }
    const group = filter.group?.trim();
    if (group) {
      const escaped = escapeLike(group);
      query = query.where((eb) =>
        eb.or([
          eb('group', '=', group),
          sql<SqlBool>`${sql.ref('group')} like ${`${escaped},%`} escape '!'`,
          sql<SqlBool>`${sql.ref('group')} like ${`%,${escaped}`} escape '!'`,
          sql<SqlBool>`${sql.ref('group')} like ${`%,${escaped},%`} escape '!'`,
        ]),
      );
    }
    const model = filter.model?.trim();
    if (model) query = query.where(containsIgnoringCase('models', model));
    return query;
  }

  /** A page of channels (no keys) matching the filter. */
  async list(options: ChannelListOptions): Promise<ChannelSummary[]> {
    let rows = this.filtered(options.filter).select(SUMMARY_COLUMNS);
    if (options.order === 'priority') rows = rows.orderBy('priority', 'desc');
    return rows.orderBy('id', 'desc').limit(options.limit).offset(options.offset).execute();
  }

  /**
   * Tag mode: a page over the distinct tags of the channels matching the filter (untagged
   * channels take no part), then every channel (no keys) carrying one of those tags, in list
   * order. Tags are ordered by their highest channel priority, then highest id (order 'id':
   * highest id only).
   */
  async listTagged(options: ChannelListOptions): Promise<ChannelSummary[]> {
    const grouped = this.filtered(options.filter)
      .where((eb) => eb.not(untagged))
      .select((eb) => ['tag', eb.fn.max('priority').as('top_priority'), eb.fn.max('id').as('top_id')])
      .groupBy('tag');
    const ordered =
      options.order === 'priority'
        ? grouped.orderBy('top_priority', 'desc').orderBy('top_id', 'desc')
        : grouped.orderBy('top_id', 'desc');
    const page = await ordered.limit(options.limit).offset(options.offset).execute();
    const tags = page.flatMap((entry) => (entry.tag ? [entry.tag] : []));
    if (tags.length === 0) return [];
    let query = this.db.selectFrom('channels').select(SUMMARY_COLUMNS).where('tag', 'in', tags);
    if (options.order === 'priority') query = query.orderBy('priority', 'desc');
    const members = await query.orderBy('id', 'desc').execute();
    const rank = new Map(tags.map((tag, index) => [tag, index]));
    return members.sort((a, b) => (rank.get(a.tag ?? '') ?? 0) - (rank.get(b.tag ?? '') ?? 0));
  }

  /** Inserts one channel row and returns its id (RETURNING where supported, insertId on MySQL). */
  private async insert(channel: NewChannel, executor: Executor): Promise<number> {
    if (this.handle.kind === 'mysql') {
      const result = await executor.insertInto('channels').values(channel).executeTakeFirstOrThrow();
      return Number(result.insertId);
    }
    const row = await executor
      .insertInto('channels')
      .values(channel)
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * Creates channels and their abilities rows in one transaction; returns the new ids in order.
   * `created_time` defaults to now.
   */
  async createMany(channels: NewChannel[]): Promise<number[]> {
    const now = Math.floor(Date.now() / 1000);
    return this.db.transaction().execute(async (trx) => {
      const ids: number[] = [];
      for (const channel of channels) {
        const id = await this.insert({ created_time: now, ...channel }, trx);
        const row = await this.findById(id, trx);
        if (row) await this.rebuildAbilities(row, trx);
        ids.push(id);
      }
      return ids;
    });
  }

  /**
   * Applies changes to one channel and keeps its abilities rows in step, in one transaction:
   * a change of models, groups, priority, weight or tag rebuilds them; a status change alone only
   * flips their `enabled` flag. Returns the updated row (with key), or undefined if absent.
   */
  async update(id: number, changes: ChannelChanges): Promise<ChannelRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      if (Object.keys(changes).length > 0) {
        // The UPDATE comes first: its row lock serializes concurrent edits of this channel, so the
        // abilities rebuilt below always come from the latest committed row.
        const result = await trx.updateTable('channels').set(changes).where('id', '=', id).executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return undefined;
      }
      const row = await this.findById(id, trx);
      if (!row) return undefined;
      if (ABILITY_FIELDS.some((field) => field in changes)) {
        await this.rebuildAbilities(row, trx);
      } else if ('status' in changes) {
        await trx
          .updateTable('abilities')
          .set({ enabled: row.status === 1 ? 1 : 0 })
          .where('channel_id', '=', id)
          .execute();
      }
      return row;
    });
  }

  /** Deletes a channel and its abilities rows; false when it did not exist. */
  async delete(id: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx.deleteFrom('channels').where('id', '=', id).executeTakeFirst();
      await trx.deleteFrom('abilities').where('channel_id', '=', id).execute();
      return Number(result.numDeletedRows) > 0;
    });
  }

  // ---- Channel operations (tests, health, balances, tags, batches) ----

  /** Channels a test-all run covers: enabled (1) and automatically disabled (3), keys included, by id. */
  async listTestable(): Promise<ChannelRow[]> {
    return this.db.selectFrom('channels').selectAll().where('status', 'in', [1, 3]).orderBy('id').execute();
  }

  /** Enabled channels (status 1), keys included, by id: what balance updates cover. */
  async listEnabled(): Promise<ChannelRow[]> {
    return this.db.selectFrom('channels').selectAll().where('status', '=', 1).orderBy('id').execute();
  }

  /**
   * Sets a channel's status (and other_info) only when its current status is one of `from`, and
   * flips its abilities rows with it, in one transaction. The condition makes automatic changes
   * safe across nodes: an auto-disable never overwrites a manual disable, an auto-enable never
   * revives a channel someone disabled by hand meanwhile. True when the row changed.
   */
  async changeStatus(
    id: number,
    from: readonly number[],
    status: number,
    otherInfo: string | null,
  ): Promise<boolean> {
    if (!Number.isInteger(id) || id < 1 || id > INT32_MAX || from.length === 0) return false;
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('channels')
        .set({ status, other_info: otherInfo })
        .where('id', '=', id)
        .where('status', 'in', [...from])
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await trx
        .updateTable('abilities')
        .set({ enabled: status === 1 ? 1 : 0 })
        .where('channel_id', '=', id)
        .execute();
      return true;
    });
  }

  /** Records a test: when it ran (Unix seconds) and how long it took (ms). */
  async recordTest(id: number, responseTimeMs: number, testTime: number): Promise<void> {
    const responseTime = Math.min(INT32_MAX, Math.max(0, Math.round(responseTimeMs)));
    await this.db
      .updateTable('channels')
      .set({ response_time: responseTime, test_time: testTime })
      .where('id', '=', id)
      .execute();
  }

  /** Stores a balance read from the upstream and when it was read (Unix seconds). */
  async recordBalance(id: number, balance: number, updatedTime: number): Promise<void> {
    await this.db
      .updateTable('channels')
      .set({ balance, balance_updated_time: updatedTime })
      .where('id', '=', id)
      .execute();
  }

  /** Deletes channels (and their abilities rows) by id; returns how many channels existed. */
  async deleteMany(ids: readonly number[]): Promise<number> {
    const valid = [...new Set(ids)].filter((id) => Number.isInteger(id) && id >= 1 && id <= INT32_MAX);
    if (valid.length === 0) return 0;
    return this.db.transaction().execute(async (trx) => {
      let deleted = 0;
      for (let start = 0; start < valid.length; start += ID_CHUNK) {
        const chunk = valid.slice(start, start + ID_CHUNK);
        const result = await trx.deleteFrom('channels').where('id', 'in', chunk).executeTakeFirst();
        await trx.deleteFrom('abilities').where('channel_id', 'in', chunk).execute();
        deleted += Number(result.numDeletedRows);
      }
      return deleted;
    });
  }

  /** Deletes every channel whose status is one of `statuses` (and its abilities rows); returns the count. */
  async deleteByStatus(statuses: readonly number[]): Promise<number> {
    if (statuses.length === 0) return 0;
    const rows = await this.db
      .selectFrom('channels')
      .select('id')
      .where('status', 'in', [...statuses])
      .execute();
    if (rows.length === 0) return 0;
    // Re-check the status at delete time: a channel re-enabled meanwhile is kept.
    return this.db.transaction().execute(async (trx) => {
      let deleted = 0;
      const ids = rows.map((row) => row.id);
      for (let start = 0; start < ids.length; start += ID_CHUNK) {
        const chunk = ids.slice(start, start + ID_CHUNK);
        const result = await trx
          .deleteFrom('channels')
          .where('id', 'in', chunk)
          .where('status', 'in', [...statuses])
          .executeTakeFirst();
        deleted += Number(result.numDeletedRows);
      }
      await trx
        .deleteFrom('abilities')
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('channels')
                .select('channels.id')
                .whereRef('channels.id', '=', 'abilities.channel_id'),
            ),
          ),
        )
        .execute();
      return deleted;
    });
  }

  /**
   * Repairs the abilities table: deletes rows of channels that no longer exist, then rebuilds
   * every channel's rows from its current columns (one transaction per channel). Returns the
   * number of channels rebuilt.
   */
  async fixAbilities(): Promise<number> {
    await this.db
      .deleteFrom('abilities')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('channels').select('channels.id').whereRef('channels.id', '=', 'abilities.channel_id'),
          ),
        ),
      )
      .execute();
    let rebuilt = 0;
    let after = 0;
    for (;;) {
      const ids = await this.db
        .selectFrom('channels')
        .select('id')
        .where('id', '>', after)
        .orderBy('id')
        .limit(ID_CHUNK)
        .execute();
      if (ids.length === 0) return rebuilt;
      for (const { id } of ids) {
        const done = await this.db.transaction().execute(async (trx) => {
          const row = await this.findById(id, trx);
          if (!row) return false;
          await this.rebuildAbilities(row, trx);
          return true;
        });
        if (done) rebuilt++;
        after = id;
      }
    }
  }

  /**
   * Applies the same changes to every channel carrying `tag` and rebuilds their abilities rows,
   * in one transaction. Returns the ids changed (empty when no channel has the tag).
   */
  async updateByTag(tag: string, changes: ChannelChanges): Promise<number[]> {
    return this.db.transaction().execute(async (trx) => {
      const ids = (
        await trx.selectFrom('channels').select('id').where('tag', '=', tag).orderBy('id').execute()
      ).map((row) => row.id);
      if (ids.length === 0 || Object.keys(changes).length === 0) return ids;
      for (let start = 0; start < ids.length; start += ID_CHUNK) {
        await trx
          .updateTable('channels')
          .set(changes)
          .where('id', 'in', ids.slice(start, start + ID_CHUNK))
          .execute();
      }
      if (ABILITY_FIELDS.some((field) => field in changes)) {
        for (const id of ids) {
          const row = await this.findById(id, trx);
          if (row) await this.rebuildAbilities(row, trx);
        }
      }
      return ids;
    });
  }

  /** Sets the status of every channel carrying `tag` (and their abilities' flag); returns the ids. */
  async setStatusByTag(tag: string, status: number): Promise<number[]> {
    return this.db.transaction().execute(async (trx) => {
      const ids = (
        await trx.selectFrom('channels').select('id').where('tag', '=', tag).orderBy('id').execute()
      ).map((row) => row.id);
      for (let start = 0; start < ids.length; start += ID_CHUNK) {
        const chunk = ids.slice(start, start + ID_CHUNK);
        await trx.updateTable('channels').set({ status }).where('id', 'in', chunk).execute();
        await trx
          .updateTable('abilities')
          .set({ enabled: status === 1 ? 1 : 0 })
          .where('channel_id', 'in', chunk)
          .execute();
      }
      return ids;
    });
  }

  /** Sets (or, with null, removes) the tag of the channels and rebuilds their abilities rows; returns the ids changed. */
  async setTagMany(ids: readonly number[], tag: string | null): Promise<number[]> {
    const valid = [...new Set(ids)].filter((id) => Number.isInteger(id) && id >= 1 && id <= INT32_MAX);
    if (valid.length === 0) return [];
    return this.db.transaction().execute(async (trx) => {
      const changed: number[] = [];
      for (const id of valid) {
        const result = await trx.updateTable('channels').set({ tag }).where('id', '=', id).executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) continue;
        const row = await this.findById(id, trx);
        if (row) await this.rebuildAbilities(row, trx);
        changed.push(id);
      }
      return changed;
    });
  }

  /**
   * Replaces a channel's abilities rows with groups × models of the given row (enabled = status 1,
   * with its priority, weight and tag). Pass the caller's transaction: it is not atomic alone.
   */
  async rebuildAbilities(
    channel: Pick<ChannelRow, 'id' | 'models' | 'group' | 'status' | 'priority' | 'weight' | 'tag'>,
    executor: Executor,
  ): Promise<void> {
    await executor.deleteFrom('abilities').where('channel_id', '=', channel.id).execute();
    const rows = abilityRowsOf(channel);
    for (let start = 0; start < rows.length; start += ABILITY_CHUNK) {
      await executor
        .insertInto('abilities')
        .values(rows.slice(start, start + ABILITY_CHUNK))
        .execute();
    }
  }
}
