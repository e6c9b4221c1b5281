import Anthropic from '@anthropic-ai/sdk';
import { signAwsRequest } from '@switchyard/relay-kit';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, type RelayFixture, startRelayFixture } from '../relay/relay-support.ts';
import { createAdapterChannel, expectCharged, readChatStream } from './adapter-support.ts';

const MODEL = 'claude-3-5-sonnet-20241022';
const BEDROCK_ID = 'anthropic.claude-3-5-sonnet-20241022-v2:0';
const ACCESS_KEY = 'AKIDMOCKEXAMPLE';
const SECRET = 'mock/secret+key';

describe('AWS Bedrock channels (type 33) against the mock Bedrock runtime', () => {
  let f: RelayFixture;
  let key: string;
  let client: OpenAI;
  let channelId: number;

  beforeAll(async () => {
    f = await startRelayFixture();
    channelId = await createAdapterChannel(f, {
      type: 33,
      key: `${ACCESS_KEY}|${SECRET}|us-east-1`,
      models: MODEL,
    });
    ({ key } = await createToken(f.root));
    client = new OpenAI({ apiKey: key, baseURL: `${f.baseUrl}/v1`, maxRetries: 0 });
  });
  afterAll(async () => f.close());

  /** Recomputes the SigV4 signature of the last recorded request with the channel's secret. */
  function expectValidSignature() {
    const sent = f.mock.lastRequest()!;
    const authorization = String(sent.headers.authorization);
    const signedNames = /SignedHeaders=([^,]+)/.exec(authorization)![1]!.split(';');
    const headers: Record<string, string> = {};
    for (const name of signedNames) {
      if (name !== 'host' && name !== 'x-amz-date') headers[name] = String(sent.headers[name]);
    }
    const amzDate = String(sent.headers['x-amz-date']);
    const date = new Date(
      `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
    );
    const expected = signAwsRequest({
      method: 'POST',
      url: `${f.mock.url}${sent.url}`,
      headers,
      body: JSON.stringify(sent.body),
      accessKeyId: ACCESS_KEY,
      secretAccessKey: SECRET,
      region: 'us-east-1',
      service: 'bedrock',
      date,
    });
    expect(authorization).toBe(expected.headers.authorization);
    expect(authorization).toContain(`Credential=${ACCESS_KEY}/`);
    return sent;
  }

  it('invokes the model with a SigV4-signed Bedrock body and bills the usage (OpenAI SDK)', async () => {
    await expectCharged(f, MODEL, channelId, async () => {
      const completion = await client.chat.completions.create({
        model: MODEL,
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hello bedrock' },
        ],
      });
      expect(completion.choices[0]?.message.content).toBe(`Hello from mock ${BEDROCK_ID}: hello bedrock`);
      const sent = expectValidSignature();
      expect(sent.path).toBe(`/model/${encodeURIComponent(BEDROCK_ID)}/invoke`);
      expect(sent.body).toMatchObject({ anthropic_version: 'bedrock-2023-05-31', system: 'be brief' });
      expect(sent.body).not.toHaveProperty('model');
      return { prompt: completion.usage!.prompt_tokens, completion: completion.usage!.completion_tokens };
    });
  });

  it('decodes the binary event stream into an OpenAI stream with usage', async () => {
    await expectCharged(f, MODEL, channelId, async () => {
      const stream = await client.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'stream bedrock' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      const { text, usage } = await readChatStream(stream);
      expect(text).toBe(`Hello from mock ${BEDROCK_ID}: stream bedrock`);
      const sent = expectValidSignature();
      expect(sent.path).toBe(`/model/${encodeURIComponent(BEDROCK_ID)}/invoke-with-response-stream`);
      const reported = usage as { prompt_tokens: number; completion_tokens: number };
      expect(reported).toMatchObject({ prompt_tokens: 5, completion_tokens: 6 });
      return { prompt: reported.prompt_tokens, completion: reported.completion_tokens };
    });
  });

  it('serves the Anthropic SDK, JSON and stream', async () => {
    const anthropic = new Anthropic({ apiKey: key, baseURL: f.baseUrl, maxRetries: 0 });
    await expectCharged(f, MODEL, channelId, async () => {
      const message = await anthropic.messages.create({
        model: MODEL,
        max_tokens: 200,
        messages: [{ role: 'user', content: 'claude on bedrock' }],
      });
      expect(message.content[0]).toMatchObject({
        type: 'text',
        text: `Hello from mock ${BEDROCK_ID}: claude on bedrock`,
      });
      expect(message.usage).toMatchObject({ input_tokens: 6, output_tokens: 7 });
      return { prompt: 6, completion: 7 };
    });
    await expectCharged(f, MODEL, channelId, async () => {
      const stream = anthropic.messages.stream({
        model: MODEL,
        max_tokens: 200,
        messages: [{ role: 'user', content: 'stream via anthropic [[mock:cached-2]]' }],
      });
      let text = '';
      stream.on('text', (delta) => {
        text += delta;
      });
      const final = await stream.finalMessage();
      expect(text).toBe(`Hello from mock ${BEDROCK_ID}: stream via anthropic`);
      expect(final.usage.cache_read_input_tokens).toBe(2);
      // Prompt: 4 words (the directive counts) + 3 = 7, 2 of them cached and reported apart.
      expect(final.usage).toMatchObject({ input_tokens: 5, output_tokens: 7 });
      return { prompt: 7, completion: 7, cacheRead: 2 };
    });
  });

  it('turns an exception frame into a stream error and a throttling reply into 429', async () => {
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'cut [[mock:error-event-after-2]]' }],
      stream: true,
    });
    await expect(readChatStream(stream)).rejects.toThrow();
    await expect(
      client.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'x [[mock:error-429]]' }],
      }),
    ).rejects.toMatchObject({ status: 429 });
  });
});
