import { generateKeyPairSync, verify } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createToken,
  type RelayFixture,
  relayPost,
  startRelayFixture,
  userBalance,
} from '../relay/relay-support.ts';
import { createAdapterChannel, expectCharged, readChatStream } from './adapter-support.ts';

const GEMINI = 'gemini-2.0-flash';
const CLAUDE = 'claude-3-5-haiku-20241022';
const VERTEX_CLAUDE = 'claude-3-5-haiku@20241022';
const PROJECT = 'demo-project';
const LOCATION = `/v1/projects/${PROJECT}/locations/us-east5/publishers`;

describe('Vertex AI channels (type 41) with a service account and a local token endpoint', () => {
  let f: RelayFixture;
  let key: string;
  let client: OpenAI;
  let channelId: number;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });

  const tokenRequests = () => f.mock.requests.filter((request) => request.path === '/token');

  beforeAll(async () => {
    f = await startRelayFixture();
    const account = {
      type: 'service_account',
      project_id: PROJECT,
      private_key_id: 'key-1',
      private_key: privateKey,
      client_email: `relay@${PROJECT}.iam.gserviceaccount.com`,
      token_uri: `${f.mock.url}/token`,
    };
    channelId = await createAdapterChannel(f, {
      type: 41,
      key: JSON.stringify(account),
      models: `${GEMINI},${CLAUDE}`,
      other: 'us-east5',
    });
    ({ key } = await createToken(f.root));
    client = new OpenAI({ apiKey: key, baseURL: `${f.baseUrl}/v1`, maxRetries: 0 });
  });
  afterAll(async () => f.close());

  it('exchanges a signed JWT for a token and calls Gemini generateContent with it', async () => {
    await expectCharged(f, GEMINI, channelId, async () => {
      const completion = await client.chat.completions.create({
        model: GEMINI,
        messages: [{ role: 'user', content: 'hello vertex' }],
      });
      expect(completion.choices[0]?.message.content).toBe(`Hello from mock ${GEMINI}: hello vertex`);
      const sent = f.mock.lastRequest()!;
      expect(sent.path).toBe(`${LOCATION}/google/models/${GEMINI}:generateContent`);
      expect(String(sent.headers.authorization)).toMatch(/^Bearer ya29\.mock-/);
      return { prompt: completion.usage!.prompt_tokens, completion: completion.usage!.completion_tokens };
    });
    const [exchange] = tokenRequests();
    const form = new URLSearchParams(String(exchange!.body));
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const [header, claims, signature] = form.get('assertion')!.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toMatchObject({
      alg: 'RS256',
      kid: 'key-1',
    });
    expect(JSON.parse(Buffer.from(claims!, 'base64url').toString())).toMatchObject({
      iss: `relay@${PROJECT}.iam.gserviceaccount.com`,
      aud: `${f.mock.url}/token`,
      scope: 'https://www.googleapis.com/auth/cloud-platform',
    });
    const signed = verify(
      'sha256',
      Buffer.from(`${header}.${claims}`),
      publicKey,
      Buffer.from(signature!, 'base64url'),
    );
    expect(signed).toBe(true);
  });

  it('streams Gemini with alt=sse, reusing the cached access token', async () => {
    await expectCharged(f, GEMINI, channelId, async () => {
      const stream = await client.chat.completions.create({
        model: GEMINI,
        messages: [{ role: 'user', content: 'stream vertex' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      const { text, usage } = await readChatStream(stream);
      expect(text).toBe(`Hello from mock ${GEMINI}: stream vertex`);
      expect(f.mock.lastRequest()!.url).toBe(
        `${LOCATION}/google/models/${GEMINI}:streamGenerateContent?alt=sse`,
      );
      const reported = usage as { prompt_tokens: number; completion_tokens: number };
      return { prompt: reported.prompt_tokens, completion: reported.completion_tokens };
    });
    expect(tokenRequests()).toHaveLength(1);
  });

  it('passes Gemini-native clients through', async () => {
    await expectCharged(f, GEMINI, channelId, async () => {
      const reply = await relayPost(
        f,
        null,
        { contents: [{ role: 'user', parts: [{ text: 'native vertex' }] }] },
        { path: `/v1beta/models/${GEMINI}:generateContent`, headers: { 'x-goog-api-key': key } },
      );
      expect(reply.status, reply.text).toBe(200);
      expect(reply.json.candidates[0].content.parts[0].text).toBe(`Hello from mock ${GEMINI}: native vertex`);
      expect(f.mock.lastRequest()!.path).toBe(`${LOCATION}/google/models/${GEMINI}:generateContent`);
      const usage = reply.json.usageMetadata;
      return { prompt: usage.promptTokenCount, completion: usage.candidatesTokenCount };
    });
  });

  it('sends Claude models to rawPredict and streamRawPredict (OpenAI SDK)', async () => {
    await expectCharged(f, CLAUDE, channelId, async () => {
      const completion = await client.chat.completions.create({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'claude on vertex' }],
      });
      expect(completion.choices[0]?.message.content).toBe(
        `Hello from mock ${VERTEX_CLAUDE}: claude on vertex`,
      );
      const sent = f.mock.lastRequest()!;
      expect(sent.path).toBe(`${LOCATION}/anthropic/models/${VERTEX_CLAUDE}:rawPredict`);
      expect(sent.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16' });
      return { prompt: completion.usage!.prompt_tokens, completion: completion.usage!.completion_tokens };
    });
    await expectCharged(f, CLAUDE, channelId, async () => {
      const stream = await client.chat.completions.create({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'stream claude [[mock:cached-2]]' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      const { text, usage } = await readChatStream(stream);
      expect(text).toBe(`Hello from mock ${VERTEX_CLAUDE}: stream claude`);
      expect(f.mock.lastRequest()!.path).toBe(
        `${LOCATION}/anthropic/models/${VERTEX_CLAUDE}:streamRawPredict`,
      );
      const reported = usage as { prompt_tokens: number; completion_tokens: number };
      // 3 words + 3 = 6 prompt tokens, 2 of them cached.
      expect(reported.prompt_tokens).toBe(6);
      return { prompt: 6, completion: reported.completion_tokens, cacheRead: 2 };
    });
  });

  it('serves the Anthropic SDK on Claude models', async () => {
    const anthropic = new Anthropic({ apiKey: key, baseURL: f.baseUrl, maxRetries: 0 });
    await expectCharged(f, CLAUDE, channelId, async () => {
      const message = await anthropic.messages.create({
        model: CLAUDE,
        max_tokens: 100,
        messages: [{ role: 'user', content: 'anthropic sdk on vertex' }],
      });
      expect(message.content[0]).toMatchObject({
        type: 'text',
        text: `Hello from mock ${VERTEX_CLAUDE}: anthropic sdk on vertex`,
      });
      return { prompt: message.usage.input_tokens, completion: message.usage.output_tokens };
    });
  });
  it('reports a refused token exchange without charging', async () => {
    const id = await createAdapterChannel(f, {
      type: 41,
      models: 'gemini-1.5-flash-latest',
      key: JSON.stringify({
        project_id: PROJECT,
        client_email: `other@${PROJECT}.iam.gserviceaccount.com`,
        private_key: privateKey,
        token_uri: `${f.mock.url}/__mock/error-400/token`,
      }),
    });
    await f.t.app.services.relay.drain();
    const before = await userBalance(f, 1);
    await expect(
      client.chat.completions.create({
        model: 'gemini-1.5-flash-latest',
        messages: [{ role: 'user', content: 'x' }],
      }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('Vertex AI token exchange failed (400)'),
    });
    const test = (await f.root.get(`/api/channel/test/${id}`)).json() as {
      success: boolean;
      message: string;
    };
    expect(test.success).toBe(false);
    expect(test.message).toContain('token exchange failed');
    await f.t.app.services.relay.drain();
    expect((await userBalance(f, 1)).quota).toBe(before.quota);
  });
});
