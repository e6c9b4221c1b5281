import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChannel,
  createToken,
  type RelayFixture,
  setOption,
  startRelayFixture,
} from './relay-support.ts';

async function chat(f: RelayFixture, key: string, text = 'hello') {
  const response = await fetch(`${f.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }] }),
  });
  return { status: response.status, body: (await response.json()) as { error?: { message: string } } };
}

describe('model request rate limit', () => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await startRelayFixture();
    await createChannel(f);
  });
  afterAll(async () => f.close());

  it('counts every request, failures included, against the total limit', async () => {
    const { key } = await createToken(f.root);
    await setOption(f, 'ModelRequestRateLimitCount', '3');
    await setOption(f, 'ModelRequestRateLimitSuccessCount', '1000');
    await setOption(f, 'ModelRequestRateLimitEnabled', 'true');
    const statuses = [];
    statuses.push((await chat(f, key, 'fails [[mock:error-400]]')).status);
    statuses.push((await chat(f, key)).status);
    statuses.push((await chat(f, key)).status);
    const refused = await chat(f, key);
    expect(statuses).toEqual([400, 200, 200]);
    expect(refused.status).toBe(429);
    expect(refused.body.error?.message).toContain('您已达到总请求数限制：1分钟内最多请求3次');
    await setOption(f, 'ModelRequestRateLimitEnabled', 'false');
    expect((await chat(f, key)).status).toBe(200);
  });

  it('admits exactly N successful requests; failures give their slot back', async () => {
    // A fresh user so the previous test's window does not count.
    await f.root.post('/api/user/', { username: 'limited', password: 'limited-password' });
    const limited = await f.t.login('limited', 'limited-password');
    await f.root.put('/api/user/', { id: limited.userId, quota: 1_000_000 });
    const { key } = await createToken(limited);
    await setOption(f, 'ModelRequestRateLimitCount', '0');
    await setOption(f, 'ModelRequestRateLimitSuccessCount', '2');
    await setOption(f, 'ModelRequestRateLimitEnabled', 'true');
    expect((await chat(f, key, 'fails [[mock:error-400]]')).status).toBe(400);
    const concurrent = await Promise.all([chat(f, key), chat(f, key), chat(f, key), chat(f, key)]);
    expect(concurrent.filter((r) => r.status === 200)).toHaveLength(2);
    const refused = concurrent.find((r) => r.status === 429);
    expect(refused?.body.error?.message).toContain('您已达到请求数限制：1分钟内最多请求2次');
    await setOption(f, 'ModelRequestRateLimitEnabled', 'false');
  });
});
