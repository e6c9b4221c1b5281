import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Payer } from './balance-moves.ts';

/**
 * Outcome of `switchyard_settle`: settled; or nothing changed because the row is no longer
 * 'reserved' (reconciled meanwhile) or the balance cannot cover the cost beyond the reservation.
 */
export type RoutineSettle = 'settled' | 'not-reserved' | 'short';

const limitedFlag = (payer: Payer) => (payer.tokenId > 0 && !payer.tokenUnlimited ? 1 : 0);

/**
 * Calls the ledger routines of migration 005 on PostgreSQL (functions, `SELECT f(...)`) and
 * MySQL/MariaDB (procedures, `CALL p(...)`): one round trip and one server-side transaction per
 * reserve, settle or refund, outside any Kysely transaction.
 */
export class LedgerRoutines {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: 'postgres' | 'mysql',
  ) {}

  private async call(name: string, args: RawBuilder<unknown>): Promise<number> {
    const statement =
      this.kind === 'postgres'
        ? sql`SELECT ${sql.raw(name)}(${args}) AS result`
        : sql`CALL ${sql.raw(name)}(${args})`;
    const { rows } = await statement.execute(this.db);
    return readResult(rows);
  }

  /** Holds the amount with its ledger row; answers whose balance was short instead (nothing changed). */
  async reserve(row: {
    id: string;
    requestId: string;
    payer: Payer;
    amount: number;
    instanceId: string;
  }): Promise<'user' | 'token' | null> {
    const { payer } = row;
    const code = await this.call(
      'switchyard_reserve',
      sql.join([
        row.id,
        row.requestId.slice(0, 64),
        payer.userId,
        payer.tokenId,
        limitedFlag(payer),
        row.amount,
        Date.now(),
        row.instanceId,
      ]),
    );
    return code === 0 ? null : code === 2 ? 'token' : 'user';
  }

  /** Deletes a 'reserved' row and credits it back; false when the row was gone already. */
  async refund(id: string, payer: Payer, amount: number): Promise<boolean> {
    const code = await this.call(
      'switchyard_refund',
      sql.join([id, payer.userId, payer.tokenId, limitedFlag(payer), amount]),
    );
    return code === 1;
  }

  /** Marks the row settled at `target` with its entry and moves the balance to the cost. */
  async settle(row: {
    id: string;
    payer: Payer;
    reserved: number;
    target: number;
    channelId: number;
    entry: string;
  }): Promise<RoutineSettle> {
    const { payer } = row;
    const code = await this.call(
      'switchyard_settle',
      sql.join([
        row.id,
        payer.userId,
        payer.tokenId,
        limitedFlag(payer),
        row.reserved,
        row.target,
        row.channelId,
        row.entry,
      ]),
    );
    return code === 0 ? 'settled' : code === 2 ? 'short' : 'not-reserved';
  }
}

/**
 * The `result` column of a routine's answer: a row on PostgreSQL; on MySQL a CALL answers its
 * result sets followed by a status packet, and the first set holds the row.
 */
export function readResult(rows: readonly unknown[]): number {
  let first: unknown = rows[0];
  if (Array.isArray(first)) first = first[0];
  const value = (first as { result?: unknown } | undefined)?.result;
  const code = Number(value);
  if (value === undefined || value === null || !Number.isInteger(code)) {
    throw new Error('ledger routine answered without a result');
  }
  return code;
}
