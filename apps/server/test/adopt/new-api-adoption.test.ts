import { type MockUpstream, startMockUpstream } from '@switchyard/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from '../helper.ts';
import { createTestDatabase, type TestDatabase, testDatabaseKind } from '../support/test-database.ts';
import { type AdoptedApp, listen, querySql, startOn, writeNewApiDatabase } from './adopt-support.ts';
import { keys, passwords, rowCounts, taskData } from './fixtures/new-api-rows.ts';

const tables = Object.keys(rowCounts) as Array<keyof typeof rowCounts>;

async function countAll(database: TestDatabase): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const [row] = await querySql<{ n: number | string }>(
      database.target,
      `SELECT count(*) AS n FROM ${table}`,
    );
    counts[table] = Number(row?.n);
  }
  return counts;
}

describe('starting on a new-api v0.4.8.9.1 database', () => {
  let database: TestDatabase;
  let mock: MockUpstream;
  let server: AdoptedApp;
  let baseUrl: string;
  let countsAfterStart: Record<string, number>;

  const chat = (key: string, model = 'gpt-4o-mini') =>
    fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model,
        max_tokens: 50,
        messages: [{ role: 'user', content: 'hello from a legacy key' }],
      }),
    });

  beforeAll(async () => {
    mock = await startMockUpstream();
    database = await createTestDatabase();
    await writeNewApiDatabase(database.target, mock.url);
    server = await startOn(database.target);
    countsAfterStart = await countAll(database);
    baseUrl = await listen(server);
  });

  afterAll(async () => {
    await server?.close();
    await mock?.close();
    await database?.drop();
  });

  it('logs each step and keeps every row', async () => {
    expect(countsAfterStart).toEqual(rowCounts);
    expect(server.lines).toContain('adopt: found a new-api database (v0.4.8 or later); adopting it in place');
    expect(server.lines).toContain('adopt: added column channels.param_override text (null)');
    expect(server.lines).toContain("adopt: added column users.oidc_id varchar(255) not null default ''");
    expect(server.lines).toContain('adopt: added column midjourneys.token_id integer not null default 0');
    if (testDatabaseKind === 'sqlite') {
      const backup = server.lines.find((line) => line.includes('.pre-switchyard-'));
      expect(backup).toMatch(/^adopt: copied .+ to .+\.pre-switchyard-\d{8}-\d{6}\.bak before changing it/);
      // The copy is the untouched new-api file: its channels still lack Switchyard's columns.
      const copy = {
        kind: 'sqlite' as const,
        location: String(backup?.split(' to ')[1]?.split(' before')[0]),
      };
      const columns = await querySql<{ name: string }>(
        copy,
        "SELECT name FROM pragma_table_info('channels')",
      );
      expect(columns.map((column) => column.name)).not.toContain('param_override');
      expect(await querySql(copy, 'SELECT id FROM users')).toHaveLength(3);
    }
    // The legacy channel organisation column carries over into Switchyard's.
    const [channel] = await querySql<{ openai_organization: string }>(
      database.target,
      'SELECT openai_organization FROM channels WHERE id = 1',
    );
    expect(channel?.openai_organization).toBe('org-legacy');
  });

  it('signs users in with their passwords and keeps roles, groups, quota and bindings', async () => {
    const root = await server.login('root', passwords.root);
    expect(envelope(await root.get('/api/user/self')).data).toMatchObject({
      id: 1,
      role: 100,
      quota: 480000000,
      used_quota: 20000000,
      request_count: 314,
      aff_code: 'R00t',
      github_id: 'gh-1001',
    });
    const alice = await server.login('alice', passwords.alice);
    expect(envelope(await alice.get('/api/user/self')).data).toMatchObject({
      id: 2,
      group: 'vip',
      inviter_id: 1,
      wechat_id: 'wx-alice',
      telegram_id: 'tg-2002',
      linux_do_id: 'ld-3003',
    });
    // No second root, no reset to the default password.
    await expect(server.login('root', '123456')).rejects.toThrow(/login failed/);
    const users = envelope(await root.get('/api/user/?p=1&page_size=50')).data;
    expect(users.items.filter((user: { role: number }) => user.role === 100)).toHaveLength(1);
  });

  it("opens the console API with root's old access token", async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/user/self',
      headers: { authorization: keys.rootAccessToken, 'new-api-user': '1' },
    });
    expect(envelope(response)).toMatchObject({ success: true, data: { username: 'root' } });
  });

  it('keeps soft-deleted users out', async () => {
    await expect(server.login('bob', passwords.bob)).rejects.toThrow(/login failed/);
  });

  it('relays with legacy keys and bills with the legacy ratios', async () => {
    const response = await chat(`sk-${keys.alice}`);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    await server.app.services.relay.drain();
    await server.app.services.relay.logWriter.flush();
    const [log] = await querySql<{
      quota: number;
      prompt_tokens: number;
      completion_tokens: number;
      channel_id: number;
      other: string;
    }>(
      database.target,
      'SELECT quota, prompt_tokens, completion_tokens, channel_id, other FROM logs WHERE type = 2 AND id > 4',
    );
    expect(log).toBeDefined();
    const expected = Math.round((Number(log?.prompt_tokens) + Number(log?.completion_tokens) * 2) * 0.5 * 3);
    expect(Number(log?.quota)).toBe(expected);
    expect(Number(log?.channel_id)).toBe(1);
    expect(JSON.parse(String(log?.other))).toMatchObject({
      model_ratio: 0.5,
      group_ratio: 3,
      completion_ratio: 2,
    });
    const [token] = await querySql<{ remain_quota: number; used_quota: number }>(
      database.target,
      'SELECT remain_quota, used_quota FROM tokens WHERE id = 1',
    );
    expect(Number(token?.remain_quota)).toBe(800000 - expected);
    expect(Number(token?.used_quota)).toBe(200000 + expected);
    // Other client protocols take the same key (Anthropic's x-api-key here).
    const messages = await fetch(`${baseUrl}/v1/messages`, {
      method: 'POST',
      headers: {
        'x-api-key': `sk-${keys.alice}`,
        'anthropic-version': '2023-06-01',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        max_tokens: 50,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    expect(messages.status).toBe(200);
    await messages.arrayBuffer();
    // The key also works without its sk- prefix, as new-api accepted it.
    const bare = await chat(keys.alice);
    expect(bare.status).toBe(200);
    await bare.arrayBuffer();
  });

  it('keeps token limits and refuses soft-deleted tokens with 401', async () => {
    expect((await chat(`sk-${keys.aliceDeleted}`)).status).toBe(401);
    // Limited to gpt-4o and to another address.
    expect((await chat(`sk-${keys.aliceLimited}`)).status).not.toBe(200);
  });

  it('shows the history in the console API', async () => {
    const root = await server.login('root', passwords.root);
    const logs = envelope(await root.get('/api/log/?p=1&page_size=50&type=0')).data;
    const legacy = logs.items.filter((row: { id: number }) => row.id <= 4);
    expect(legacy).toHaveLength(4);
    expect(legacy.find((row: { id: number }) => row.id === 1)).toMatchObject({
      model_name: 'gpt-4o-mini',
      quota: 1500,
    });
    const redemptions = envelope(await root.get('/api/redemption/?p=1&page_size=50')).data;
    expect(redemptions.items.map((row: { name: string }) => row.name).sort()).toEqual(['spring', 'winter']);
    const channels = envelope(await root.get('/api/channel/?p=0&page_size=50')).data;
    expect(channels.find((row: { id: number }) => row.id === 1)).toMatchObject({
      name: 'legacy-openai',
      tag: 'primary',
      balance: 12.5,
      priority: 5,
      weight: 10,
      group: 'default,vip',
    });
    const drawings = envelope(await root.get('/api/mj/?p=0&page_size=50')).data;
    expect(drawings[0]).toMatchObject({ mj_id: '1738000123456789', submit_time: 1738000000123 });
    const tasks = envelope(await root.get('/api/task/?p=0&page_size=50')).data;
    expect(tasks[0]).toMatchObject({ task_id: 'suno-task-1', data: taskData });
    const buckets = envelope(
      await root.get('/api/data/?username=alice&start_timestamp=1737990000&end_timestamp=1738010000'),
    );
    expect(buckets.data).toEqual([
      expect.objectContaining({ model_name: 'gpt-4o-mini', quota: 1500, token_used: 600 }),
    ]);
    const status = envelope(await server.app.inject({ method: 'GET', url: '/api/status' }));
    expect(status.data).toMatchObject({ system_name: 'Legacy Gateway' });
  });

  it('redeems unused codes and refuses used and deleted ones', async () => {
    const alice = await server.login('alice', passwords.alice);
    expect(envelope(await alice.post('/api/user/topup', { key: keys.redemptionUnused }))).toMatchObject({
      success: true,
      data: 250000,
    });
    expect(envelope(await alice.post('/api/user/topup', { key: keys.redemptionUsed })).success).toBe(false);
    expect(envelope(await alice.post('/api/user/topup', { key: keys.redemptionDeleted })).success).toBe(
      false,
    );
  });

  it('soft-deletes in the column form the table already has', async () => {
    const alice = await server.login('alice', passwords.alice);
    expect(envelope(await alice.delete('/api/token/2')).success).toBe(true);
    const [row] = await querySql<{ deleted_at: unknown }>(
      database.target,
      'SELECT deleted_at FROM tokens WHERE id = 2',
    );
    expect(row?.deleted_at).not.toBeNull();
    expect(typeof row?.deleted_at === 'number').toBe(false);
    expect(envelope(await alice.get('/api/token/2')).success).toBe(false);
  });

  it('starts a second time without adopting again', async () => {
    await server.close();
    const before = await countAll(database);
    server = await startOn(database.target, { GIN_MODE: 'release', SQL_MAX_OPEN_CONNS: '100' });
    expect(server.lines.filter((line) => line.startsWith('adopt:'))).toEqual([]);
    expect(server.lines).toContain('not used by Switchyard (new-api settings): GIN_MODE, SQL_MAX_OPEN_CONNS');
    expect(await countAll(database)).toEqual(before);
    await server.login('root', passwords.root);
  });
});
