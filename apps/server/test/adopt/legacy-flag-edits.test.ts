import { type MockUpstream, startMockUpstream } from '@switchyard/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from '../helper.ts';
import { createTestDatabase, type TestDatabase, testDatabaseKind } from '../support/test-database.ts';
import { type AdoptedApp, listen, querySql, startOn, writeNewApiDatabase } from './adopt-support.ts';
import { keys, passwords } from './fixtures/new-api-rows.ts';

/**
 * Console edits on an adopted database keep new-api's flag columns as they are (PostgreSQL's
 * `boolean` for tokens.unlimited_quota, tokens.model_limits_enabled, abilities.enabled), and
 * relaying goes on reading them.
 */
describe('editing channels, tokens and users on an adopted new-api database', () => {
  let database: TestDatabase;
  let mock: MockUpstream;
  let server: AdoptedApp;
  let baseUrl: string;

  const chat = async (key: string, model = 'gpt-4o-mini') => {
    const response = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }),
    });
    await response.arrayBuffer();
    return response.status;
  };
  /** A flag as the database holds it: a boolean on PostgreSQL, 0/1 elsewhere. */
  const flag = (value: boolean) => (testDatabaseKind === 'postgres' ? value : Number(value));
  const read = <T>(text: string) => querySql<T>(database.target, text);

  beforeAll(async () => {
    mock = await startMockUpstream();
    database = await createTestDatabase();
    await writeNewApiDatabase(database.target, mock.url);
    server = await startOn(database.target);
    baseUrl = await listen(server);
  });

  afterAll(async () => {
    await server?.close();
    await mock?.close();
    await database?.drop();
  });

  it('disables and re-enables a channel, rebuilding its abilities, then relays through it', async () => {
    const root = await server.login('root', passwords.root);
    const disabled = envelope(await root.put('/api/channel/', { id: 1, status: 2 }));
    expect(disabled.success).toBe(true);
    const off = await read<{ enabled: unknown }>('SELECT enabled FROM abilities WHERE channel_id = 1');
    expect(off.map((row) => row.enabled)).toEqual([flag(false), flag(false), flag(false), flag(false)]);
    expect(await chat(keys.alice)).not.toBe(200);

    // Changing the models rebuilds the abilities rows (inserted into the boolean column).
    const enabled = envelope(
      await root.put('/api/channel/', { id: 1, status: 1, models: 'gpt-4o-mini,gpt-4o', priority: 7 }),
    );
    expect(enabled.success).toBe(true);
    const on = await read<{ enabled: unknown; priority: number }>(
      'SELECT enabled, priority FROM abilities WHERE channel_id = 1',
    );
    expect(on).toHaveLength(4);
    expect(on.map((row) => [row.enabled, Number(row.priority)])).toEqual(on.map(() => [flag(true), 7]));
    expect(await chat(keys.alice)).toBe(200);
  });

  it("edits a token's flags and status, and the relay obeys them", async () => {
    const alice = await server.login('alice', passwords.alice);
    const edited = envelope(
      await alice.put('/api/token/', {
        id: 2,
        name: 'alice-limited',
        remain_quota: 0,
        expired_time: -1,
        unlimited_quota: true,
        model_limits_enabled: false,
        model_limits: '',
        allow_ips: '',
        group: '',
      }),
    );
    expect(edited).toMatchObject({
      success: true,
      data: { unlimited_quota: true, model_limits_enabled: false },
    });
    const [row] = await read<{ unlimited_quota: unknown; model_limits_enabled: unknown }>(
      'SELECT unlimited_quota, model_limits_enabled FROM tokens WHERE id = 2',
    );
    expect(row).toEqual({ unlimited_quota: flag(true), model_limits_enabled: flag(false) });
    // Limited to gpt-4o and 10.9.9.9 before; now open, unlimited, and billed without a remain check.
    expect(await chat(keys.aliceLimited, 'gpt-4o-mini')).toBe(200);

    expect(envelope(await alice.put('/api/token/?status_only=true', { id: 2, status: 2 })).success).toBe(
      true,
    );
    expect(await chat(keys.aliceLimited)).toBe(401);
    expect(envelope(await alice.put('/api/token/?status_only=true', { id: 2, status: 1 })).success).toBe(
      true,
    );
    expect(await chat(keys.aliceLimited)).toBe(200);

    // A limited, quota-counted token again: its remain quota is spent by the relay.
    envelope(
      await alice.put('/api/token/', {
        id: 1,
        name: 'alice-main',
        remain_quota: 800000,
        expired_time: -1,
        unlimited_quota: false,
        model_limits_enabled: true,
        model_limits: 'gpt-4o-mini',
        allow_ips: '',
        group: '',
      }),
    );
    expect(await chat(keys.alice, 'gpt-4o')).not.toBe(200);
    expect(await chat(keys.alice, 'gpt-4o-mini')).toBe(200);
    await server.app.services.relay.drain();
    const [main] = await read<{ remain_quota: number; model_limits_enabled: unknown }>(
      'SELECT remain_quota, model_limits_enabled FROM tokens WHERE id = 1',
    );
    expect(main?.model_limits_enabled).toEqual(flag(true));
    expect(Number(main?.remain_quota)).toBeLessThan(800000);
  });

  it("edits a user's group and quota, and the relay bills them", async () => {
    const root = await server.login('root', passwords.root);
    const user = envelope(await root.get('/api/user/2')).data as { username: string };
    const edited = envelope(
      await root.put('/api/user/', {
        id: 2,
        username: user.username,
        display_name: 'Alice E',
        group: 'default',
        quota: 5000000,
      }),
    );
    expect(edited.success).toBe(true);
    expect(await chat(keys.alice, 'gpt-4o-mini')).toBe(200);
    await server.app.services.relay.drain();
    const [row] = await read<{ quota: number; group: string; display_name: string }>(
      `SELECT quota, ${testDatabaseKind === 'mysql' ? '`group`' : '"group"'} AS "group", display_name FROM users WHERE id = 2`,
    );
    expect(row?.group).toBe('default');
    expect(row?.display_name).toBe('Alice E');
    expect(Number(row?.quota)).toBeLessThan(5000000);
  });
});
