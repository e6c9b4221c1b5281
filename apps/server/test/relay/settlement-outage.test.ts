import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duringOutage } from '../support/ledger-outage.ts';
import {
  chatBody,
  createChannel,
  createCommonUser,
  createToken,
  eventually,
  type RelayFixture,
  relayPost,
  settledLogs,
  startRelayFixture,
  userBalance,
} from './relay-support.ts';

/**
 * A settlement the database refuses (ADR-26) after the answer: the caller still gets its answer,
 * the refusal is logged once (by the retries, not again by the relay), and once the retry writes
 * the settlement, the charge is counted like any other (the quota-charged metric here). A task
 * submit whose settlement is refused still answers success: the task exists upstream.
 */

/** suno_lyrics: 0.01 USD at QuotaPerUnit 500000. */
const LYRICS = 5_000;

describe('a settlement the database refuses', () => {
  let fixture: RelayFixture;
  let user: Awaited<ReturnType<typeof createCommonUser>>;
  let token: { key: string; id: number };
  const lines: Array<{ level: number; msg: string }> = [];
  const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };

  beforeAll(async () => {
    fixture = await startRelayFixture({}, { logger: { level: 'warn', stream } });
    await createChannel(fixture);
    await createChannel(fixture, {
      name: 'suno',
      type: 36,
      key: 'suno-key',
      base_url: `${fixture.mock.url}/__mock/task-step-100`,
      models: 'suno_lyrics',
    });
    user = await createCommonUser(fixture, 'outage', 1_000_000);
    token = await createToken(user.client);
  });
  afterAll(() => fixture.close());

  const errors = () => lines.filter((line) => line.level >= 50).map((line) => line.msg);
  const charged = () => fixture.t.app.services.relay.metrics!.quotaChargedTotal.get();
  const refusals = () => errors().filter((message) => message.startsWith('settlement failed')).length;

  it('answers the call, logs the refusal once and counts the charge when the retry writes it', async () => {
    lines.length = 0;
    const chargedBefore = charged();
    const before = await userBalance(fixture, user.id);
    await duringOutage(fixture.t.app.services.database, async () => {
      const reply = await relayPost(fixture, token.key, chatBody('gpt-4o-mini', 'hello during an outage'));
      expect(reply.status).toBe(200);
      expect(reply.json.choices[0].message.content).toBeTruthy();
      await eventually(
        async () => refusals(),
        (count) => count === 1,
      );
      // Held, not charged, while the database refuses.
      expect((await userBalance(fixture, user.id)).quota).toBeLessThan(before.quota);
      expect(charged()).toBe(chargedBefore);
    });
    // The first retry comes a second after the refusal.
    const logs = await eventually(
      () => settledLogs(fixture),
      (rows) => rows.length === 1,
      10_000,
    );
    const cost = Number(logs[0]!.quota);
    expect(cost).toBeGreaterThan(0);
    await eventually(
      async () => charged() - chargedBefore,
      (value) => value === cost,
    );
    expect((await userBalance(fixture, user.id)).quota).toBe(before.quota - cost);
    expect(errors()).toEqual([
      'settlement failed; it is retried while this process runs (the reservation stays held meanwhile)',
    ]);
  });

  it('answers a task submit with success and charges it once the retry writes it', async () => {
    lines.length = 0;
    const before = await userBalance(fixture, user.id);
    await duringOutage(fixture.t.app.services.database, async () => {
      const submitted = await relayPost(
        fixture,
        token.key,
        { prompt: 'lyrics about an outage' },
        { path: '/suno/submit/lyrics' },
      );
      expect(submitted.status).toBe(200);
      expect(submitted.json).toMatchObject({ code: 'success', message: '' });
      expect(refusals()).toBe(1);
    });
    await eventually(
      async () => (await userBalance(fixture, user.id)).quota,
      (quota) => quota === before.quota - LYRICS,
      10_000,
    );
    expect(errors()).toHaveLength(1);
  });
});
