import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseTarget } from '../../src/config/env.ts';
import { envelope } from '../helper.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { querySql, runSql, startOn, statementsOf } from './adopt-support.ts';
import { oneApiPasswords, oneApiRowCounts, oneApiRows } from './fixtures/one-api-rows.ts';

/** A trigger that refuses every update of tokens: the database's own way to make one step fail. */
function freezeTokens(target: DatabaseTarget): string[] {
  if (target.kind === 'sqlite') {
    return [
      "CREATE TRIGGER freeze_tokens BEFORE UPDATE ON tokens BEGIN SELECT RAISE(ABORT, 'tokens are frozen'); END",
    ];
  }
  if (target.kind === 'postgres') {
    return [
      "CREATE FUNCTION freeze_tokens() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'tokens are frozen'; END $$ LANGUAGE plpgsql",
      'CREATE TRIGGER freeze_tokens BEFORE UPDATE ON tokens FOR EACH ROW EXECUTE FUNCTION freeze_tokens()',
    ];
  }
  return [
    "CREATE TRIGGER freeze_tokens BEFORE UPDATE ON tokens FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'tokens are frozen'",
  ];
}

function thawTokens(target: DatabaseTarget): string[] {
  if (target.kind === 'postgres') {
    return ['DROP TRIGGER freeze_tokens ON tokens', 'DROP FUNCTION freeze_tokens()'];
  }
  return ['DROP TRIGGER freeze_tokens'];
}

const tokenLimits = async (target: DatabaseTarget) =>
  (
    await querySql<{ id: number; model_limits: string; model_limits_enabled: number }>(
      target,
      'SELECT id, model_limits, model_limits_enabled FROM tokens ORDER BY id',
    )
  ).map((row) => ({ ...row, id: Number(row.id), model_limits_enabled: Number(row.model_limits_enabled) }));

describe('an adoption interrupted half-way', () => {
  let database: TestDatabase | null = null;
  afterEach(async () => {
    await database?.drop();
    database = null;
  });

  it('names the failed step, leaves the done steps, and the next start finishes the job', async () => {
    database = await createTestDatabase();
    const { target } = database;
    await runSql(target, [
      ...statementsOf(`one-api-v0.6.9.${target.kind}.sql`),
      ...oneApiRows(target.kind, 'http://127.0.0.1:9'),
    ]);
    await runSql(target, freezeTokens(target));

    const failed: string[] = [];
    await expect(startOn(target, {}, failed)).rejects.toThrow(
      /adopt: failed carrying tokens\.models over to tokens\.model_limits: .*tokens are frozen/,
    );
    const failure = failed.find((line) => line.startsWith('adopt: failed'));
    expect(failure).toMatch(
      /^adopt: failed carrying tokens\.models over to tokens\.model_limits: .*start again to finish adoption$/,
    );
    // The steps before the failure are done: the columns are there, the values not yet carried.
    expect(failed).toContain("adopt: added column tokens.model_limits varchar(1024) not null default ''");
    expect(await tokenLimits(target)).toEqual([
      { id: 1, model_limits: '', model_limits_enabled: 0 },
      { id: 2, model_limits: '', model_limits_enabled: 0 },
    ]);

    await runSql(target, thawTokens(target));
    const server = await startOn(target);
    try {
      expect(server.lines).toContain('adopt: found a one-api database (v0.6.x); adopting it in place');
      expect(server.lines).toContain('adopt: copied tokens.model_limits from tokens.models');
      // Only the column of a step after the failed one is added now.
      expect(server.lines.filter((line) => line.startsWith('adopt: added column'))).toEqual([
        'adopt: added column channels.one_api_type integer (null)',
      ]);
      expect(await tokenLimits(target)).toEqual([
        { id: 1, model_limits: '', model_limits_enabled: 0 },
        { id: 2, model_limits: 'gpt-4o', model_limits_enabled: 1 },
      ]);
      for (const [table, count] of Object.entries(oneApiRowCounts)) {
        const [row] = await querySql<{ n: number }>(target, `SELECT count(*) AS n FROM ${table}`);
        expect({ table, n: Number(row?.n) }).toEqual({ table, n: count });
      }
      const root = await server.login('root', oneApiPasswords.root);
      expect(envelope(await root.get('/api/user/self')).data).toMatchObject({ quota: 900000000 });
    } finally {
      await server.close();
    }
  });
});
