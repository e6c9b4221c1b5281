import { type MockUpstream, startMockUpstream } from '@switchyard/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseTarget } from '../../src/config/env.ts';
import { checkAdoption } from '../../src/db/adopt/adoption-check.ts';
import { envelope } from '../helper.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { type AdoptedApp, listen, querySql, runSql, startOn, statementsOf } from './adopt-support.ts';
import {
  oneApiChannelConfigs,
  oneApiKeys,
  oneApiPasswords,
  oneApiRenumberedChannels,
  oneApiRowCounts,
  oneApiRows,
} from './fixtures/one-api-rows.ts';

const channelTypes = async (target: DatabaseTarget) =>
  (
    await querySql<{ id: number; type: number; one_api_type: number | null; status: number }>(
      target,
      'SELECT id, type, one_api_type, status FROM channels ORDER BY id',
    )
  ).map((row) => ({
    id: Number(row.id),
    one_api_type: row.one_api_type === null ? null : Number(row.one_api_type),
    type: Number(row.type),
    status: Number(row.status),
  }));

/** A one-api v0.6.9 database: recognised, adopted, and its users, tokens and history carried over. */
describe('starting on a one-api v0.6.9 database', () => {
  let database: TestDatabase;
  let mock: MockUpstream;
  let server: AdoptedApp;
  let baseUrl: string;
  let checkLines: string[];

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
    checkLines = await checkAdoption(database.target, true);
    server = await startOn(database.target);
    baseUrl = await listen(server);
  });

  it('is described by the check before the start: the type column and the channels it moves', () => {
    expect(checkLines[0]).toBe('database: one-api (v0.6.x)');
    expect(checkLines).toContain("channels.one_api_type: added, keeping each channel's one-api type");
    expect(checkLines).toContain("channel types renumbered to Switchyard's: 4, 5");
    expect(checkLines).toContain('channels disabled (type with no Switchyard equivalent): 6');
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

  it("translates the channels' config into the fields Switchyard reads, keeping config", async () => {
    expect(server.lines).toContain(
      'adopt: translated channels.config of channel(s) 2, 3 (Azure API version, AWS key)',
    );
    const rows = await querySql<{ id: number; key: string; other: string; config: string }>(
      database.target,
      `SELECT id, ${database.target.kind === 'postgres' ? '"key"' : '`key`'} AS "key", other, config FROM channels WHERE id IN (2, 3) ORDER BY id`,
    );
    expect(rows.map((row) => ({ ...row, id: Number(row.id) }))).toEqual([
      { id: 2, key: 'azure-one-api-key', other: '2024-06-01', config: oneApiChannelConfigs.azure },
      {
        id: 3,
        key: 'AKIAONEAPIEXAMPLE|one-api-aws-secret|us-west-2',
        other: '',
        config: oneApiChannelConfigs.aws,
      },
    ]);
    // The Azure channel relays with the API version its config held.
    const response = await chat(oneApiKeys.open, 'azure-gpt-4o');
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const upstream = mock.lastRequest();
    expect(upstream?.path).toBe('/openai/deployments/azure-gpt-4o/chat/completions');
    expect(new URL(upstream?.url ?? '', 'http://mock').searchParams.get('api-version')).toBe('2024-06-01');
  });

  it("gives channels Switchyard's type number, keeps one-api's, and disables those without one", async () => {
    expect(server.lines).toContain(
      "adopt: gave channel(s) 4, 5 Switchyard's number for their one-api type (the old one kept in channels.one_api_type)",
    );
    expect(server.lines).toContain(
      'adopt: disabled channel(s) 6: their one-api type has no Switchyard equivalent (kept in type and channels.one_api_type)',
    );
    expect(await channelTypes(database.target)).toEqual([
      { id: 1, one_api_type: 1, type: 1, status: 1 },
      { id: 2, one_api_type: 3, type: 3, status: 1 },
      { id: 3, one_api_type: 33, type: 33, status: 1 },
      ...oneApiRenumberedChannels,
    ]);
    const deepl = await querySql<{ enabled: unknown }>(
      database.target,
      'SELECT enabled FROM abilities WHERE channel_id = 6',
    );
    expect(deepl.map((row) => Number(row.enabled))).toEqual([0]);
    // The DeepSeek channel (one-api 36, Suno's number in Switchyard) relays as DeepSeek does.
    const response = await chat(oneApiKeys.open, 'deepseek-chat');
    expect({ status: response.status, body: await response.text() }).toMatchObject({ status: 200 });
    const upstream = mock.lastRequest();
    expect(upstream?.path).toBe('/v1/chat/completions');
    expect(upstream?.headers.authorization).toBe('Bearer sk-one-api-deepseek');
  });

  it('changes nothing on a second start', async () => {
    const before = await channelTypes(database.target);
    const again = await startOn(database.target);
    try {
      expect(again.lines.filter((line) => line.startsWith('adopt:'))).toEqual([]);
      expect(await channelTypes(database.target)).toEqual(before);
    } finally {
      await again.close();
    }
  });
});
