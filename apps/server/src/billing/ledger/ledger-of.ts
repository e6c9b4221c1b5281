import type { DatabaseHandle } from '../../db/database.ts';
import type { Ledger } from './ledger.ts';
import { mysqlDialect } from './mysql/mysql-ledger.ts';
import { postgresDialect } from './postgres/postgres-ledger.ts';
import { ServerLedger } from './routines/server-ledger.ts';
import { SqliteLedger } from './sqlite/sqlite-ledger.ts';

const ledgers = new WeakMap<DatabaseHandle, Ledger>();

/** The ledger of a database connection, one per handle (billing, the writer and reconciliation share it). */
export function ledgerOf(handle: DatabaseHandle): Ledger {
  let ledger = ledgers.get(handle);
  if (!ledger) {
    ledger = openLedger(handle);
    ledgers.set(handle, ledger);
  }
  return ledger;
}

/** A new ledger for the handle's dialect. */
export function openLedger(handle: DatabaseHandle): Ledger {
  if (handle.kind === 'sqlite') return new SqliteLedger(handle);
  return new ServerLedger(handle, handle.kind === 'postgres' ? postgresDialect : mysqlDialect);
}
