import { parseServerSentEvents } from '@switchyard/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatBody,
  createChannel,
  createToken,
  expectOpenAIError,
  type RelayFixture,
  relayPost,
  settledLogs,
  startRelayFixture,
  tokenRow,
  userBalance,
} from './relay-support.ts';

describe('relay errors: bad input, broken upstreams, partial streams', () => {
  let f: RelayFixture;
  let key: string;
  let tokenId: number;

  /** User and token balances, after every running settlement is done. */
  const balances = async () => {
    await f.t.app.services.relay.drain();
    const user = await userBalance(f, 1);
    const token = await tokenRow(f, tokenId);
    return { ...user, token_remain: Number(token.remain_quota), token_used: Number(token.used_quota) };
  };
  /** Runs `call` and asserts it left every balance exactly as it was. */
  const unchanged = async (call: () => Promise<void>) => {
    const before = await balances();
    await call();
    expect(await balances()).toEqual(before);
  };

  beforeAll(async () => {
    f = await startRelayFixture({ RELAY_BODY_LIMIT: '65536', RELAY_TIMEOUT: '1' });
    await createChannel(f);
    // A limited token, so refunds must restore the token's remaining quota as well as the user's.
    const token = await createToken(f.root, { unlimited_quota: false, remain_quota: 50_000_000 });
    key = token.key;
    tokenId = token.id;
  });
  afterAll(async () => f.close());

  it('refuses malformed JSON, a missing model and non-array messages with 400', async () => {
    await unchanged(async () => {
      expectOpenAIError(await relayPost(f, key, '{"model": "gpt-4o", "messages": ['), 400);
      expectOpenAIError(await relayPost(f, key, { messages: [{ role: 'user', content: 'x' }] }), 400);
      expectOpenAIError(await relayPost(f, key, { model: 'gpt-4o', messages: 'hello' }), 400);
      expectOpenAIError(await relayPost(f, key, '[1, 2, 3]'), 400);
    });
  });

  it('refuses a body over RELAY_BODY_LIMIT with 413 in the OpenAI shape', async () => {
    const huge = chatBody('gpt-4o', 'x'.repeat(100_000));
    const mockCalls = f.mock.requests.length;
    await unchanged(async () => {
      expectOpenAIError(await relayPost(f, key, huge), 413);
    });
    expect(f.mock.requests.length).toBe(mockCalls);
  });

  it('turns an upstream HTML error page into a clean OpenAI error and refunds', async () => {
    await unchanged(async () => {
      const reply = await relayPost(f, key, chatBody('gpt-4o', 'page [[mock:html-error]]'));
      const error = expectOpenAIError(reply, 502, 'bad response status code 502');
      expect(error.type).toBe('upstream_error');
      expect(reply.headers.get('content-type')).toContain('application/json');
      expect(reply.text).not.toMatch(/<\/?[a-z]+[\s>]/i);
    });
  });

  it('answers a timed-out upstream (RELAY_TIMEOUT=1) with 504 and refunds the reservation', async () => {
    await unchanged(async () => {
      const started = Date.now();
      const reply = await relayPost(f, key, chatBody('gpt-4o', 'wait [[mock:timeout]]'));
      expectOpenAIError(reply, 504, 'timed out');
      expect(Date.now() - started).toBeLessThan(5000);
    });
  });

  it('bills a stream cut mid-way for what was delivered, exactly once', async () => {
    const before = await balances();
    const logsBefore = (await settledLogs(f)).length;
    const reply = await relayPost(
      f,
      key,
      chatBody('gpt-4o', 'one two three four five [[mock:disconnect-after-2]]', { stream: true }),
    );
    expect(reply.status).toBe(200);
    const events = parseServerSentEvents(reply.text);
    const chunks = events.map((event) => JSON.parse(event.data));
    const delivered = chunks.map((chunk) => chunk.choices?.[0]?.delta?.content ?? '').join('');
    expect(delivered.trim().split(/\s+/)).toHaveLength(2);
    // The cut is reported to the client as an in-stream error event, never as a stack trace.
    expect(chunks.at(-1).error.message).toBeTruthy();
    expect(reply.text).not.toContain('[DONE]');

    const logs = (await settledLogs(f)).slice(logsBefore);
    expect(logs).toHaveLength(1);
    const log = logs[0]!;
    const other = JSON.parse(log.other ?? '{}');
    expect(['local', 'upstream']).toContain(other.usage_source);
    expect(log.is_stream).toBe(1);
    expect(log.completion_tokens).toBeGreaterThan(0);
    // gpt-4o: model ratio 1.25, completion ratio 4, group ratio 1.
    expect(log.quota).toBe(Math.round((log.prompt_tokens + log.completion_tokens * 4) * 1.25));
    const after = await balances();
    expect(before.quota - after.quota).toBe(log.quota);
    expect(before.token_remain - after.token_remain).toBe(log.quota);
    expect(after.used_quota - before.used_quota).toBe(log.quota);
    expect(after.request_count - before.request_count).toBe(1);
  });

  it('ends a stream at a malformed event with an OpenAI error event and bills what was delivered', async () => {
    await f.t.app.services.relay.drain();
    const before = await balances();
    const body = chatBody('gpt-4o', 'broken stream please [[mock:chunks-6,bad-json-event]]', {
      stream: true,
      stream_options: { include_usage: true },
    });
    const reply = await relayPost(f, key, body);
    expect(reply.status).toBe(200);
    const events = parseServerSentEvents(reply.text);
    const last = JSON.parse(events.at(-1)!.data);
    expect(last.error).toMatchObject({
      message: 'upstream sent a malformed stream event',
      type: 'upstream_error',
    });
    expect(reply.text).not.toContain('data: [DONE]');
    const delivered = events
      .flatMap((event) => {
        try {
          return [JSON.parse(event.data)];
        } catch {
          return [];
        }
      })
      .map((chunk) => chunk.choices?.[0]?.delta?.content ?? '')
      .join('');
    expect(delivered.length).toBeGreaterThan(0);
    const log = (await settledLogs(f)).at(-1)!;
    expect(log.content).toContain('上游流事件无法解析');
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(before.quota - (await balances()).quota).toBe(log.quota);
  });

  it('refunds an upstream error before the first byte of a stream', async () => {
    await unchanged(async () => {
      const reply = await relayPost(f, key, chatBody('gpt-4o', 'boom [[mock:error-503]]', { stream: true }));
      expectOpenAIError(reply, 503);
    });
  });
});
