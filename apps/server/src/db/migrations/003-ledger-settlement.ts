import type { Kysely } from 'kysely';

/** Ledger rows that outlive settlement until their consume log is written, and node_instances heartbeats. (being written) */
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}
