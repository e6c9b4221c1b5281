import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { migrateDatabases } from '../../src/db/migrate.ts';
import { NodeInstance } from '../../src/nodes/node-instance.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

/** A process's node_instances row: registered, beating, back after being taken for dead, gone at stop. */

describe('node instance heartbeats', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  const errors: unknown[] = [];
  const log = {
    error: (...args: unknown[]) => errors.push(args),
    warn: () => undefined,
    info: () => undefined,
  } as never;
  const rowOf = (id: string) =>
    handle.db.selectFrom('node_instances').selectAll().where('id', '=', id).executeTakeFirst();

  beforeAll(async () => {
    database = await createTestDatabase();
    handle = openDatabase(database.target);
    await migrateDatabases(handle.db as never, null);
  });
  afterAll(async () => {
    await handle?.destroy();
    await database?.drop();
  });

  it('registers, beats, registers again when its row was removed, and deletes it at stop', async () => {
    const instance = new NodeInstance(handle, 'slave', log, 3_600_000);
    const other = new NodeInstance(handle, 'master', log, 3_600_000);
    expect(instance.id).not.toBe(other.id);
    await instance.start();
    await other.start();
    const registered = await rowOf(instance.id);
    expect(registered).toMatchObject({ node_type: 'slave' });
    expect(Number(registered!.started_at)).toBe(instance.startedAt);

    await new Promise((resolve) => setTimeout(resolve, 20));
    await instance.beat();
    expect(Number((await rowOf(instance.id))!.heartbeat_at)).toBeGreaterThan(
      Number(registered!.heartbeat_at),
    );

    // The master took this process for dead and removed its row: the next beat puts it back.
    await handle.db.deleteFrom('node_instances').where('id', '=', instance.id).execute();
    await instance.beat();
    expect(await rowOf(instance.id)).toMatchObject({ node_type: 'slave' });
    expect(errors).toEqual([]);

    await instance.stop();
    expect(await rowOf(instance.id)).toBeUndefined();
    expect(await rowOf(other.id)).toBeDefined();
    await other.stop();
  });

  it('logs a failed beat once per outage, never throwing', async () => {
    const broken = openDatabase(database.target);
    const instance = new NodeInstance(broken, 'master', log, 3_600_000);
    await instance.start();
    await broken.destroy();
    errors.length = 0;
    await instance.beat();
    await instance.beat();
    expect(errors).toHaveLength(1);
    await handle.db.deleteFrom('node_instances').where('id', '=', instance.id).execute();
  });
});
