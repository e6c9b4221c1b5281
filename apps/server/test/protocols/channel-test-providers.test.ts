import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RelayFixture, settledLogs, startRelayFixture, userBalance } from '../relay/relay-support.ts';
import { createAdapterChannel } from './adapter-support.ts';

/** GET /api/channel/test/{id} as root, with an optional `?model=`. */
async function testChannel(f: RelayFixture, id: number, model?: string) {
  const query = model === undefined ? '' : `?model=${encodeURIComponent(model)}`;
  const reply = await f.root.get(`/api/channel/test/${id}${query}`);
  return reply.json() as { success: boolean; message: string; time: number };
}

describe('GET /api/channel/test/{id} on channels of other wire formats', () => {
  let f: RelayFixture;

  beforeAll(async () => {
    f = await startRelayFixture();
  });
  afterAll(async () => f.close());

  /** Tests the channel and returns what reached the mock; asserts success, a log row and no charge. */
  async function expectTestPasses(id: number, model: string) {
    await f.t.app.services.relay.drain();
    const before = await userBalance(f, 1);
    const start = f.mock.requests.length;
    const reply = await testChannel(f, id);
    expect(reply, JSON.stringify(reply)).toMatchObject({ success: true, message: '' });
    expect(reply.time).toBeGreaterThanOrEqual(0);
    const log = (await settledLogs(f)).at(-1)!;
    expect(log).toMatchObject({ token_name: '模型测试', model_name: model, channel_id: id });
    expect(Number(log.prompt_tokens)).toBeGreaterThan(0);
    expect(Number(log.completion_tokens)).toBeGreaterThan(0);
    expect(await userBalance(f, 1)).toEqual(before);
    const sent = f.mock.requests.slice(start);
    expect(sent).toHaveLength(1);
    return sent[0]!;
  }

  it('passes on an Anthropic channel (type 14) through /v1/messages', async () => {
    const id = await createAdapterChannel(f, {
      type: 14,
      key: 'sk-ant-mock',
      models: 'claude-3-5-sonnet-20241022',
    });
    const sent = await expectTestPasses(id, 'claude-3-5-sonnet-20241022');
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe('sk-ant-mock');
    expect(sent.headers['anthropic-version']).toBeTruthy();
    expect(sent.body).toMatchObject({
      model: 'claude-3-5-sonnet-20241022',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect((sent.body as { max_tokens: number }).max_tokens).toBeGreaterThan(0);
  });

  it('passes on a Gemini channel (type 24) through generateContent', async () => {
    const id = await createAdapterChannel(f, { type: 24, key: 'gemini-mock', models: 'gemini-2.0-flash' });
    const sent = await expectTestPasses(id, 'gemini-2.0-flash');
    expect(sent.path).toMatch(/^\/v1(beta)?\/models\/gemini-2\.0-flash:generateContent$/);
    expect(sent.headers['x-goog-api-key'] === 'gemini-mock' || sent.url.includes('key=gemini-mock')).toBe(
      true,
    );
    expect(sent.body).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
  });

  it('reports an upstream refusal with its status', async () => {
    const id = await createAdapterChannel(f, {
      type: 24,
      key: 'gemini-mock',
      models: 'gemini-2.0-flash',
      base_url: `${f.mock.url}/__mock/error-403`,
    });
    const reply = await testChannel(f, id);
    expect(reply.success).toBe(false);
    expect(reply.message).toContain('403');
  });
});
