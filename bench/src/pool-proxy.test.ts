import { type MockUpstream, startMockUpstream } from '@switchyard/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPoolProxy, type Target } from './targets.ts';

/**
 * The buffered floor must be the pass-through it claims: the upstream's status and body unchanged,
 * every answer sent whole with its length (a streamed answer included), nothing checked.
 */
describe('pool-proxy.mjs (buffered floor)', () => {
  let mock: MockUpstream;
  let pool: Target;

  beforeAll(async () => {
    mock = await startMockUpstream();
    pool = await startPoolProxy(mock.url, null);
  });
  afterAll(async () => {
    await pool?.stop();
    await mock?.close();
  });

  const chat = (body: object, authorization = 'Bearer sk-any') =>
    fetch(`${pool.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'hello pool' }],
        ...body,
      }),
    });

  it("relays a chat call and answers the upstream's body with its length", async () => {
    const response = await chat({});
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text).choices[0].message.content).toContain('hello pool');
  });

  it('answers a streamed chat whole, with its length, events intact', async () => {
    const response = await chat({ stream: true });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it("passes the upstream's refusal through unchanged", async () => {
    const response = await chat({}, 'Bearer sk-invalid');
    expect(response.status).toBe(401);
  });
});
