import { RedemptionStatus } from '@switchyard/shared';
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { DatabaseHandle } from '../database.ts';
import { containsIgnoringCase } from '../like-pattern.ts';
import type { Database, RedemptionTable } from '../schema.ts';
import { deletedAtSeconds, deletedAtValue } from '../soft-delete.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** A redemption code row with numbers normalized (PostgreSQL and MySQL may hand back strings for bigint). */
export interface RedemptionRow {
  id: number;
  user_id: number;
  key: string;
  status: number;
  name: string;
  quota: number;
  created_time: number;
  redeemed_time: number;
  used_user_id: number;
  deleted_at: number | null;
}

/** What creating a code needs; status, redeemer and times take their defaults. */
export type NewRedemption = Pick<RedemptionRow, 'user_id' | 'key' | 'name' | 'quota' | 'created_time'>;

/** Filters of the admin search: an empty keyword matches every live code. */
export interface RedemptionSearch {
  keyword?: string;
  offset: number;
  limit: number;
}

function toRow(stored: Selectable<RedemptionTable>): RedemptionRow {
  return {
    id: Number(stored.id),
    user_id: Number(stored.user_id),
    key: stored.key,
    status: Number(stored.status),
    name: stored.name,
    quota: Number(stored.quota),
    created_time: Number(stored.created_time),
    redeemed_time: Number(stored.redeemed_time),
    used_user_id: Number(stored.used_user_id),
    deleted_at: deletedAtSeconds(stored.deleted_at),
  };
}

const affected = (result: { numUpdatedRows: bigint }) => Number(result.numUpdatedRows) > 0;

/**
 * The redemptions table. Every state change is one conditional UPDATE whose WHERE clause states
 * the rule (unused, not deleted...), so concurrent calls on any database and any number of nodes
 * cannot both win; callers read the row afterwards only to explain a refusal.
 */
export class RedemptionRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  private get db() {
    return this.handle.db;
  }

  /** The live (not deleted) code with this id. */
  async findById(id: number, executor: Executor = this.db): Promise<RedemptionRow | undefined> {
    const stored = await executor
      .selectFrom('redemptions')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return stored ? toRow(stored) : undefined;
  }

  /** The code with this key, INCLUDING deleted rows (check `deleted_at`). */
  async findByKey(key: string, executor: Executor = this.db): Promise<RedemptionRow | undefined> {
    const stored = await executor
      .selectFrom('redemptions')
      .selectAll()
      .where('key', '=', key)
      .executeTakeFirst();
    return stored ? toRow(stored) : undefined;
  }

  /** Live codes matching the keyword (id, exact key, or name substring), newest first, plus the total. */
  async search(criteria: RedemptionSearch): Promise<{ items: RedemptionRow[]; total: number }> {
    let query = this.db.selectFrom('redemptions').where('deleted_at', 'is', null);
    const keyword = criteria.keyword?.trim();
    if (keyword) {
      const numeric = /^\d{1,10}$/.test(keyword) ? Number(keyword) : null;
      query = query.where((eb) =>
        eb.or([
          ...(numeric !== null && numeric <= 2_147_483_647 ? [eb('id', '=', numeric)] : []),
          eb('key', '=', keyword),
          containsIgnoringCase('name', keyword),
        ]),
      );
    }
    const [items, total] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(criteria.limit).offset(criteria.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirst(),
    ]);
    return { items: items.map(toRow), total: Number(total?.count ?? 0) };
  }

  /** Inserts a batch of codes in one statement (all or none). */
  async createMany(codes: NewRedemption[], executor: Executor = this.db): Promise<void> {
    if (codes.length === 0) return;
    const values: Insertable<RedemptionTable>[] = codes.map((code) => ({
      ...code,
      status: RedemptionStatus.Unused,
    }));
    await executor.insertInto('redemptions').values(values).execute();
  }

  /** Changes name and/or quota of a live, unused code; false when it is missing, used or disabled. */
  async updateIfUnused(
    id: number,
    changes: { name?: string; quota?: number },
    executor: Executor = this.db,
  ): Promise<boolean> {
    if (changes.name === undefined && changes.quota === undefined) {
      return (await this.findById(id, executor))?.status === RedemptionStatus.Unused;
    }
    const result = await executor
      .updateTable('redemptions')
      .set(changes)
      .where('id', '=', id)
      .where('status', '=', RedemptionStatus.Unused)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return affected(result);
  }

  /** Enables (1) or disables (2) a live code that has not been used; false otherwise. */
  async setStatusIfNotUsed(id: number, status: 1 | 2, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .updateTable('redemptions')
      .set({ status })
      .where('id', '=', id)
      .where('status', 'in', [RedemptionStatus.Unused, RedemptionStatus.Disabled])
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return affected(result);
  }

  /** Soft-deletes a live code; false when it is missing or already deleted. */
  async softDelete(id: number, now: number, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .updateTable('redemptions')
      .set({ deleted_at: deletedAtValue(this.handle.deletedAt.redemptions, this.handle.kind, now) })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return affected(result);
  }

  /**
   * Claims an unused code for a user: the one statement that decides who redeems it. True for
   * exactly one caller per code, however many race (the row lock serializes them; the losers
   * re-check `status = 1` and match nothing).
   */
  async markUsed(key: string, userId: number, now: number, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .updateTable('redemptions')
      .set({ status: RedemptionStatus.Used, used_user_id: userId, redeemed_time: now })
      .where('key', '=', key)
      .where('status', '=', RedemptionStatus.Unused)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return affected(result);
  }
}
