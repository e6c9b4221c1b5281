import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mockPngBase64 } from '@switchyard/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRemoteImage, type ImageFetchSettings } from '../../src/relay/images/remote-image-fetcher.ts';
import { createChannel, createToken, type RelayFixture, startRelayFixture } from '../relay/relay-support.ts';

const PNG = Buffer.from(mockPngBase64, 'base64');

/** A local image host: /cat.png, a redirect to it, and a worker endpoint that fetches for others. */
function startImageHost(): Promise<{ server: Server; url: string; workerCalls: unknown[] }> {
  const workerCalls: unknown[] = [];
  const server = createServer((request, response) => {
    if (request.url === '/cat.png') {
      response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    } else if (request.url === '/moved') {
      response.writeHead(302, { location: '/cat.png' }).end();
    } else if (request.url === '/page.html') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    } else if (request.url === '/worker' && request.method === 'POST') {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        workerCalls.push(JSON.parse(body));
        response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      });
    } else {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}`, workerCalls });
    }),
  );
}

describe('remote images for upstreams that only take inline images', () => {
  let host: Awaited<ReturnType<typeof startImageHost>>;
  const settings = (overrides: Partial<ImageFetchSettings> = {}): ImageFetchSettings => ({
    workerUrl: '',
    workerKey: '',
    maxBytes: 1024 * 1024,
    timeoutMs: 5000,
    allowPrivateAddresses: true,
    ...overrides,
  });

  beforeAll(async () => {
    host = await startImageHost();
  });
  afterAll(() => new Promise<void>((resolve) => host.server.close(() => resolve())));

  it('downloads an image, following redirects', async () => {
    const image = await fetchRemoteImage(`${host.url}/moved`, settings());
    expect(image.mimeType).toBe('image/png');
    expect(image.data.equals(PNG)).toBe(true);
  });

  it('refuses private addresses unless allowed, non-images and oversized files', async () => {
    await expect(
      fetchRemoteImage(`${host.url}/cat.png`, settings({ allowPrivateAddresses: false })),
    ).rejects.toThrow(/内网或本机/);
    await expect(fetchRemoteImage(`${host.url}/page.html`, settings())).rejects.toThrow(/不是图片/);
    await expect(fetchRemoteImage(`${host.url}/cat.png`, settings({ maxBytes: 10 }))).rejects.toThrow(/上限/);
    await expect(fetchRemoteImage('ftp://example.com/a.png', settings())).rejects.toThrow(/http/);
  });

  it('goes through the worker when WorkerUrl is set, with the worker key, https targets only', async () => {
    const worker = settings({ workerUrl: `${host.url}/worker`, workerKey: 'worker-secret' });
    const image = await fetchRemoteImage('https://images.example/cat.png', worker);
    expect(image.data.equals(PNG)).toBe(true);
    expect(host.workerCalls.at(-1)).toEqual({
      url: 'https://images.example/cat.png',
      key: 'worker-secret',
      method: 'GET',
    });
    await expect(fetchRemoteImage('http://images.example/cat.png', worker)).rejects.toThrow(/https/);
  });

  describe('through the relay to a Gemini channel', () => {
    let f: RelayFixture;
    let client: OpenAI;

    beforeAll(async () => {
      f = await startRelayFixture({ ALLOW_PRIVATE_IMAGE_URLS: 'true' });
      await createChannel(f, { type: 24, models: 'gemini-2.0-flash' });
      const { key } = await createToken(f.root);
      client = new OpenAI({ apiKey: key, baseURL: `${f.baseUrl}/v1`, maxRetries: 0 });
    });
    afterAll(async () => f.close());

    it('sends a linked image as inlineData', async () => {
      const completion = await client.chat.completions.create({
        model: 'gemini-2.0-flash',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'what is this?' },
              { type: 'image_url', image_url: { url: `${host.url}/cat.png` } },
            ],
          },
        ],
      });
      expect(completion.choices[0]?.message.content).toContain('Hello from mock gemini-2.0-flash');
      const parts = (f.mock.lastRequest()!.body as { contents: Array<{ parts: unknown[] }> }).contents[0]!
        .parts;
      expect(parts).toContainEqual({ inlineData: { mimeType: 'image/png', data: mockPngBase64 } });
    });

    it('answers 400 in the OpenAI shape when the image cannot be fetched', async () => {
      await expect(
        client.chat.completions.create({
          model: 'gemini-2.0-flash',
          messages: [
            { role: 'user', content: [{ type: 'image_url', image_url: { url: `${host.url}/missing.png` } }] },
          ],
        }),
      ).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/图片下载失败/) });
    });
  });
});
