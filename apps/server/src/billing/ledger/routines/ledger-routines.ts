import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Payer } from '../balance-moves.ts';
import { RoutineGroups } from './routine-groups.ts';

/**
 * Outcome of `switchyard_settle`: settled; or nothing changed because the row is no longer
 * 'reserved' (reconciled meanwhile) or the balance cannot cover the cost beyond the reservation.
 */
export type RoutineSettle = 'settled' | 'not-reserved' | 'short';

const limitedFlag = (payer: Payer) => (payer.tokenId > 0 && !payer.tokenUnlimited ? 1 : 0);

/**
 * Calls the ledger routines of migration 005 on PostgreSQL (functions, `SELECT f(...)`) and
 * MySQL/MariaDB (procedures, `CALL p(...)`): one round trip and one server-side transaction per
 * reserve, settle or refund, outside any Kysely transaction; one user's calls of one event-loop
 * turn share that round trip and transaction (routine-groups.ts).
 */
export class LedgerRoutines {
  /** One user's calls of one event-loop turn share a statement (routine-groups.ts). */
  private readonly groups: RoutineGroups;

  constructor(db: Kysely<Database>, kind: 'postgres' | 'mysql') {
    this.groups = new RoutineGroups(db, kind);
  }

  private call(userId: number, name: string, args: readonly unknown[]): Promise<number> {
    return this.groups.call(userId, name, args);
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
    const code = await this.call(payer.userId, 'switchyard_reserve', [
      row.id,
      row.requestId.slice(0, 64),
      payer.userId,
      payer.tokenId,
      limitedFlag(payer),
      row.amount,
      Date.now(),
      row.instanceId,
    ]);
    return code === 0 ? null : code === 2 ? 'token' : 'user';
  }

  /** Deletes a 'reserved' row and credits it back; false when the row was gone already. */
  async refund(id: string, payer: Payer, amount: number): Promise<boolean> {
    const code = await this.call(payer.userId, 'switchyard_refund', [
      id,
      payer.userId,
      payer.tokenId,
      limitedFlag(payer),
      amount,
    ]);
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
    const code = await this.call(payer.userId, 'switchyard_settle', [
      row.id,
      payer.userId,
      payer.tokenId,
      limitedFlag(payer),
      row.reserved,
      row.target,
      row.channelId,
      row.entry,
    ]);
    return code === 0 ? 'settled' : code === 2 ? 'short' : 'not-reserved';
  }
}
