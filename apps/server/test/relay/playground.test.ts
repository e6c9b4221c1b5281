import { parseServerSentEvents } from '@switchyard/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatBody,
  createChannel,
  expectOpenAIError,
  type RawReply,
  type RelayFixture,
  relayPost,
  settledLogs,
  startRelayFixture,
  userBalance,
} from './relay-support.ts';

describe('playground: POST /pg/chat/completions with the console session', () => {
  let f: RelayFixture;
  let channelId: number;

  /** The root session's headers, for calls made with a real fetch. */
  const sessionHeaders = () => ({ cookie: f.root.cookie!, 'new-api-user': String(f.root.userId) });
  /** A non-stream playground call through app.inject with the root session. */
  const playground = async (body: unknown): Promise<RawReply> => {
    const response = await f.root.post('/pg/chat/completions', body as object);
    let json: unknown;
    try {
      json = response.json();
    } catch {
      json = undefined;
    }
    return {
      status: response.statusCode,
      headers: new Headers(response.headers as Record<string, string>),
      text: response.body,
      json,
    };
  };

  beforeAll(async () => {
    f = await startRelayFixture();
    channelId = await createChannel(f, { group: 'default,vip' });
  });
  afterAll(async () => f.close());

  it('answers a non-stream chat billed to the session user, with no token', async () => {
    const before = await userBalance(f, 1);
    const reply = await playground(chatBody('gpt-4o-mini', 'hello playground'));
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.choices[0].message.content).toContain('Hello from mock gpt-4o-mini: hello playground');
    const log = (await settledLogs(f)).at(-1)!;
    expect(log).toMatchObject({
      user_id: 1,
      token_id: 0,
      channel_id: channelId,
      is_stream: 0,
      group: 'default',
    });
    const usage = reply.json.usage;
    expect(log.quota).toBe(
      Math.max(1, Math.round((usage.prompt_tokens + usage.completion_tokens * 4) * 0.075)),
    );
    const after = await userBalance(f, 1);
    expect(before.quota - after.quota).toBe(log.quota);
    expect(after.request_count - before.request_count).toBe(1);
  });

  it('streams to a real client carrying the session cookie and New-Api-User', async () => {
    const reply = await relayPost(
      f,
      null,
      chatBody('gpt-4o-mini', 'stream in the playground', { stream: true }),
      {
        path: '/pg/chat/completions',
        headers: sessionHeaders(),
      },
    );
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get('content-type')).toContain('text/event-stream');
    const events = parseServerSentEvents(reply.text);
    expect(events.at(-1)?.data).toBe('[DONE]');
    const text = events
      .slice(0, -1)
      .map((event) => JSON.parse(event.data).choices[0]?.delta?.content ?? '')
      .join('');
    expect(text).toBe('Hello from mock gpt-4o-mini: stream in the playground');
    const log = (await settledLogs(f)).at(-1)!;
    expect(log).toMatchObject({ user_id: 1, token_id: 0, is_stream: 1 });
    expect(log.quota).toBeGreaterThan(0);
  });

  it('answers the body of new-api playground (max_tokens: 0, group ""): the 0 is not forwarded', async () => {
    const body = {
      messages: [{ role: 'user', content: 'zero limit' }],
      stream: false,
      model: 'gpt-4o-mini',
      group: '',
      max_tokens: 0,
      temperature: 0,
    };
    const reply = await playground(body);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.choices[0]).toMatchObject({ finish_reason: 'stop' });
    expect(reply.json.choices[0].message.content).toContain('zero limit');
    expect(f.mock.lastRequest()?.body).toEqual({
      messages: body.messages,
      stream: false,
      model: 'gpt-4o-mini',
      temperature: 0,
    });
  });

  it('routes and bills in a usable group chosen in the body', async () => {
    // The earlier calls' rows first: a batch may write them after this call's row.
    const earlier = new Set((await settledLogs(f)).map((row) => row.id));
    const reply = await playground(chatBody('gpt-4o-mini', 'vip please', { group: 'vip' }));
    expect(reply.status, reply.text).toBe(200);
    const added = (await settledLogs(f)).filter((row) => !earlier.has(row.id));
    expect(added).toEqual([expect.objectContaining({ group: 'vip', token_id: 0 })]);
    // The playground's own field is not sent upstream (OpenAI rejects unknown parameters).
    expect(f.mock.lastRequest()?.body).toEqual(chatBody('gpt-4o-mini', 'vip please'));
  });

  it('refuses a group the user may not use, or one without a ratio, before any upstream call', async () => {
    const before = await userBalance(f, 1);
    const mockCalls = f.mock.requests.length;
    expectOpenAIError(await playground(chatBody('gpt-4o-mini', 'x', { group: 'svip' })), 403, 'svip');
    expectOpenAIError(
      await playground(chatBody('gpt-4o-mini', 'x', { group: 'nope' })),
      403,
      '分组 nope 已被弃用',
    );
    expect(f.mock.requests.length).toBe(mockCalls);
    expect(await userBalance(f, 1)).toEqual(before);
  });

  it('refuses anonymous calls and a session without New-Api-User with 401', async () => {
    const body = chatBody('gpt-4o-mini', 'who am I');
    expectOpenAIError(await relayPost(f, null, body, { path: '/pg/chat/completions' }), 401);
    const anonymous = await f.t.anonymous().post('/pg/chat/completions', body);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.message).toMatch(/\(request id: \w+\)$/);
    const noUserHeader = await relayPost(f, null, body, {
      path: '/pg/chat/completions',
      headers: { cookie: f.root.cookie! },
    });
    expectOpenAIError(noUserHeader, 401, 'New-Api-User');
  });
});
