import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { DatabaseHandle } from '../database.ts';
import type { Database, MidjourneyTable } from '../schema.ts';

export type MidjourneyRow = Selectable<MidjourneyTable>;
export type NewMidjourney = Insertable<MidjourneyTable>;
export type MidjourneyChanges = Updateable<MidjourneyTable>;
type Executor = Kysely<Database> | Transaction<Database>;

/** The progress of a task that is done (success or failure); such rows are never polled again. */
export const FINISHED_PROGRESS = '100%';

/** Filters of the drawing lists, combined with AND (0 / '' = no filter). */
export interface MidjourneyFilter {
  userId?: number;
  channelId?: number;
  /** Exact. */
  mjId?: string;
  /** submit_time ≥ start (milliseconds). */
  startMs?: number;
  /** submit_time ≤ end (milliseconds). */
  endMs?: number;
}

/** The midjourneys table: drawing tasks relayed to Midjourney-proxy channels. */
export class MidjourneyRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  private get db(): Kysely<Database> {
    return this.handle.db;
  }

  /** Inserts a task row and returns its id. */
  async insert(row: NewMidjourney): Promise<number> {
    if (this.handle.kind === 'mysql') {
      const result = await this.db.insertInto('midjourneys').values(row).executeTakeFirstOrThrow();
      return Number(result.insertId);
    }
    const inserted = await this.db
      .insertInto('midjourneys')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(inserted.id);
  }

  /** The caller's task with this upstream id (the newest when an id was stored twice). */
  async findByMjId(userId: number, mjId: string): Promise<MidjourneyRow | undefined> {
    if (mjId === '') return undefined;
    return this.db
      .selectFrom('midjourneys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('mj_id', '=', mjId)
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /** Any user's task with this upstream id (the public image route). */
  async findAnyByMjId(mjId: string): Promise<MidjourneyRow | undefined> {
    if (mjId === '') return undefined;
    return this.db
      .selectFrom('midjourneys')
      .selectAll()
      .where('mj_id', '=', mjId)
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /** The caller's tasks among these upstream ids. */
  async findManyByMjIds(userId: number, mjIds: readonly string[]): Promise<MidjourneyRow[]> {
    const ids = mjIds.filter((id) => id !== '');
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('midjourneys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('mj_id', 'in', ids)
      .orderBy('id')
      .execute();
  }

  /** Tasks not finished yet (progress below 100%), oldest first. */
  async listUnfinished(limit: number): Promise<MidjourneyRow[]> {
    return this.db
      .selectFrom('midjourneys')
      .selectAll()
      .where('progress', '<>', FINISHED_PROGRESS)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * Updates a task that is still unfinished; returns false when it was finished meanwhile (by
   * another poller or node), so a finished task is never changed, or refunded, twice.
   */
  async updateUnfinished(
    id: number,
    changes: MidjourneyChanges,
    executor: Executor = this.db,
  ): Promise<boolean> {
    const result = await executor
      .updateTable('midjourneys')
      .set(changes)
      .where('id', '=', id)
      .where('progress', '<>', FINISHED_PROGRESS)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** One page of tasks, newest first. */
  async list(filter: MidjourneyFilter, page: { offset: number; limit: number }): Promise<MidjourneyRow[]> {
    let query = this.db.selectFrom('midjourneys');
    if (filter.userId) query = query.where('user_id', '=', filter.userId);
    if (filter.channelId) query = query.where('channel_id', '=', filter.channelId);
    if (filter.mjId) query = query.where('mj_id', '=', filter.mjId);
    if (filter.startMs) query = query.where('submit_time', '>=', filter.startMs);
    if (filter.endMs) query = query.where('submit_time', '<=', filter.endMs);
    return query.selectAll().orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute();
  }
}
