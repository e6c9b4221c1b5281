import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CHANNEL_TAG, DEMO_MODELS, isDemoRequested, startDemo } from '../../src/demo/demo-mode.ts';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';

describe('offline demo mode (npm start -- --demo)', () => {
  let t: TestApp;
  let root: ConsoleClient;

  beforeAll(async () => {
    t = await buildTestApp();
    root = await t.login('root', '123456');
  });
  afterAll(async () => t.close());

  it('is requested by the --demo argument or SWITCHYARD_DEMO', () => {
    expect(isDemoRequested(['--demo'], {})).toBe(true);
    expect(isDemoRequested([], { SWITCHYARD_DEMO: 'true' })).toBe(true);
    expect(isDemoRequested([], {})).toBe(false);
    expect(isDemoRequested(['--demonstrate'], { SWITCHYARD_DEMO: 'no' })).toBe(false);
  });

  it('registers a labelled channel on an in-process mock upstream and answers in the playground', async () => {
    const { channelId, url } = await startDemo(t.app);
    const channel = await t.app.services.channels.findById(channelId);
    expect(channel).toMatchObject({ tag: DEMO_CHANNEL_TAG, base_url: url, status: 1, type: 1 });
    expect(channel?.name).toMatch(/Demo/);
    expect(channel?.models?.split(',')).toEqual(DEMO_MODELS);

    const reply = await root.post('/pg/chat/completions', {
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello demo' }],
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json().choices[0].message.content).toBe('Hello from mock gpt-4o-mini: hello demo');
    await t.app.services.relay.drain();
    const logs = await t.app.services.logDatabase.db
      .selectFrom('logs')
      .select(['channel_id', 'quota'])
      .where('type', '=', 2)
      .execute();
    expect(logs).toEqual([{ channel_id: channelId, quota: expect.any(Number) }]);
    expect(logs[0]!.quota).toBeGreaterThan(0);
  });

  it('reuses the same channel on the next demo start and points it at the new mock address', async () => {
    const first = await t.app.services.database.db
      .selectFrom('channels')
      .select(['id', 'base_url'])
      .where('tag', '=', DEMO_CHANNEL_TAG)
      .execute();
    const again = await startDemo(t.app);
    const rows = await t.app.services.database.db
      .selectFrom('channels')
      .select(['id', 'base_url'])
      .where('tag', '=', DEMO_CHANNEL_TAG)
      .execute();
    expect(rows).toEqual([{ id: first[0]!.id, base_url: again.url }]);
    expect(again.url).not.toBe(first[0]!.base_url);
  });
});
