import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChannel,
  createToken,
  type RelayFixture,
  settledLogs,
  startRelayFixture,
} from '../relay/relay-support.ts';

/** The value of one sample line (`name{labels} value`) of the exposition text, or undefined. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const prefix = labels ? `${name}{${labels}} ` : `${name} `;
  const line = text.split('\n').find((entry) => entry.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(prefix.length));
}

describe('relay metrics and the added-time header', () => {
  let f: RelayFixture;
  let client: OpenAI;
  let channelId: number;
  const metricsText = async () => (await f.t.app.inject({ method: 'GET', url: '/metrics' })).body;

  beforeAll(async () => {
    f = await startRelayFixture();
    channelId = await createChannel(f);
    client = new OpenAI({
      apiKey: (await createToken(f.root)).key,
      baseURL: `${f.baseUrl}/v1`,
      maxRetries: 0,
    });
  });
  afterAll(async () => f.close());

  it('counts upstream answers, charged quota, streams, added latency and cache lookups', async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'metrics please' }] })
      .withResponse();
    expect(data.choices).toHaveLength(1);
    expect(Number(response.headers.get('x-switchyard-added-ms'))).toBeGreaterThanOrEqual(0);
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: 'stream metrics [[mock:chunks-3]]' }],
    });
    for await (const _chunk of stream) {
      // drain
    }
    await expect(
      client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: '[[mock:error-400]]' }],
      }),
    ).rejects.toMatchObject({ status: 400 });
    const logs = await settledLogs(f);
    const charged = logs.reduce((sum, log) => sum + log.quota, 0);

    const text = await metricsText();
    expect(
      sample(text, 'switchyard_upstream_responses_total', `channel_id="${channelId}",status="200"`),
    ).toBe(2);
    expect(
      sample(text, 'switchyard_upstream_responses_total', `channel_id="${channelId}",status="400"`),
    ).toBe(1);
    expect(sample(text, 'switchyard_quota_charged_total')).toBe(charged);
    expect(sample(text, 'switchyard_relay_active_streams')).toBe(0);
    expect(sample(text, 'switchyard_relay_added_latency_seconds_count')).toBe(2);
    expect(
      sample(text, 'switchyard_cache_lookups_total', 'cache="token",result="hit"'),
    ).toBeGreaterThanOrEqual(2);
  });
});
