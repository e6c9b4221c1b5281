import { type MockUpstream, startMockUpstream } from '@switchyard/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from '../helper.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { type AdoptedApp, listen, querySql, runSql, startOn, statementsOf } from './adopt-support.ts';
import { oneApiKeys, oneApiPasswords, oneApiRowCounts, oneApiRows } from './fixtures/one-api-rows.ts';

/** A one-api v0.6.9 database: recognised, adopted, and its users, tokens and history carried over. */
describe('starting on a one-api v0.6.9 database', () => {
  let database: TestDatabase;
  let mock: MockUpstream;
  let server: AdoptedApp;
  let baseUrl: string;

  const chat = (key: string, model: string) =>
    fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }),
    });

  beforeAll(async () => {
    mock = await startMockUpstream();
    database = await createTestDatabase();
    const kind = database.target.kind;
    await runSql(database.target, [
      ...statementsOf(`one-api-v0.6.9.${kind}.sql`),
      ...oneApiRows(kind, mock.url),
    ]);
    server = await startOn(database.target);
    baseUrl = await listen(server);
  });

  afterAll(async () => {
    await server?.close();
    await mock?.close();
    await database?.drop();
  });

  it('recognises one-api, keeps every row and carries token limits over', async () => {
    expect(server.lines).toContain('adopt: found a one-api database (v0.6.x); adopting it in place');
    expect(server.lines).toContain('adopt: copied tokens.model_limits from tokens.models');
    for (const [table, count] of Object.entries(oneApiRowCounts)) {
      const [row] = await querySql<{ n: number }>(database.target, `SELECT count(*) AS n FROM ${table}`);
      expect({ table, n: Number(row?.n) }).toEqual({ table, n: count });
    }
    const tokens = await querySql<{ id: number; model_limits: string; model_limits_enabled: number }>(
      database.target,
      'SELECT id, model_limits, model_limits_enabled FROM tokens ORDER BY id',
    );
    const plain = tokens.map((row) => ({
      ...row,
      id: Number(row.id),
      model_limits_enabled: Number(row.model_limits_enabled),
    }));
    expect(plain).toEqual([
      { id: 1, model_limits: '', model_limits_enabled: 0 },
      { id: 2, model_limits: 'gpt-4o', model_limits_enabled: 1 },
    ]);
  });

  it('signs root in with the one-api password, relays and keeps the history', async () => {
    const root = await server.login('root', oneApiPasswords.root);
    expect(envelope(await root.get('/api/user/self')).data).toMatchObject({
      quota: 900000000,
      aff_code: 'OnE1',
    });
    const open = await chat(oneApiKeys.open, 'gpt-4o-mini');
    expect(open.status).toBe(200);
    await open.arrayBuffer();
    expect((await chat(oneApiKeys.limited, 'gpt-4o-mini')).status).not.toBe(200);
    const logs = envelope(await root.get('/api/log/?p=1&page_size=20&type=2')).data;
    expect(logs.items.some((row: { id: number; quota: number }) => row.id === 1 && row.quota === 300)).toBe(
      true,
    );
    expect(
      envelope(await root.post('/api/user/topup', { key: 'f3a9c1e7b5d24f6a8c0e2b4d6f8a0c1e' })),
    ).toMatchObject({
      success: true,
      data: 300000,
    });
  });
});
