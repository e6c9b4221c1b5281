import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatBody,
  createChannel,
  createToken,
  type RelayFixture,
  settledLogs,
  startRelayFixture,
} from './relay-support.ts';

/**
 * A whole (non-stream) OpenAI answer is passed on as the bytes the upstream sent: multi-byte text
 * arrives intact with the right length, and a byte that is not valid UTF-8 is not rewritten on the
 * way (the relay reads the usage from the text, but sends the bytes).
 */
describe('a passed-through JSON answer', () => {
  let f: RelayFixture;
  let upstream: Server;
  let key: string;
  let answer: Buffer;

  const answerWith = (content: Buffer) =>
    Buffer.concat([
      Buffer.from(
        '{"id":"chatcmpl-bytes","object":"chat.completion","created":1,"model":"gpt-4o-mini",' +
          '"choices":[{"index":0,"message":{"role":"assistant","content":"',
      ),
      content,
      Buffer.from(
        '"},"finish_reason":"stop"}],"usage":{"prompt_tokens":11,"completion_tokens":7,"total_tokens":18}}',
      ),
    ]);

  beforeAll(async () => {
    f = await startRelayFixture();
    upstream = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
        response.end(answer);
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const address = upstream.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    await createChannel(f, { name: 'bytes', base_url: `http://127.0.0.1:${port}`, models: 'gpt-4o-mini' });
    key = (await createToken(f.root)).key;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
    await f.close();
  });

  const call = async () => {
    const response = await fetch(`${f.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(chatBody('gpt-4o-mini', 'bytes please')),
    });
    return { response, bytes: Buffer.from(await response.arrayBuffer()) };
  };

  it('arrives byte for byte, multi-byte text included, with its length', async () => {
    answer = answerWith(Buffer.from('你好，世界 — ünïcödé 🚀', 'utf8'));
    const { response, bytes } = await call();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(Number(response.headers.get('content-length'))).toBe(answer.length);
    expect(bytes.equals(answer)).toBe(true);
  });

  it('keeps a byte that is not UTF-8 as it was, and bills the usage read from the text', async () => {
    const before = (await settledLogs(f)).length;
    answer = answerWith(Buffer.from([0x61, 0xff, 0x62]));
    const { response, bytes } = await call();
    expect(response.status).toBe(200);
    expect(bytes.equals(answer)).toBe(true);
    await expect
      .poll(async () =>
        (await settledLogs(f)).slice(before).map((log) => [log.prompt_tokens, log.completion_tokens]),
      )
      .toEqual([[11, 7]]);
  });
});
