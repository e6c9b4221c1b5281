import type { Kysely } from 'kysely';

/** Database-backed model request rate limits for nodes without Redis. (being written) */
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}
