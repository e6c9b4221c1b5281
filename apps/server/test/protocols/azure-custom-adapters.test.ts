import Anthropic from '@anthropic-ai/sdk';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, deleteChannels, type RelayFixture, startRelayFixture } from '../relay/relay-support.ts';
import {
  createAdapterChannel,
  expectCharged,
  mockCompletionTokens,
  mockPromptTokens,
  readChatStream,
} from './adapter-support.ts';

let f: RelayFixture;
let key: string;
let client: OpenAI;

beforeAll(async () => {
  f = await startRelayFixture();
  ({ key } = await createToken(f.root));
  client = new OpenAI({ apiKey: key, baseURL: `${f.baseUrl}/v1`, maxRetries: 0 });
});
afterAll(async () => f.close());

describe('Azure OpenAI channels (type 3)', () => {
  const MODEL = 'gpt-3.5-turbo';
  let channelId: number;
  beforeAll(async () => {
    channelId = await createAdapterChannel(f, {
      type: 3,
      key: 'azure-secret',
      models: MODEL,
      other: '2024-10-21',
    });
  });
  afterAll(async () => deleteChannels(f, [channelId]));

  it('calls the deployment path with api-key and api-version, and bills the usage', async () => {
    await expectCharged(f, MODEL, channelId, async () => {
      const completion = await client.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'hello azure' }],
      });
      expect(completion.choices[0]?.message.content).toContain('hello azure');
      const sent = f.mock.lastRequest()!;
      expect(sent.path).toBe('/openai/deployments/gpt-35-turbo/chat/completions');
      expect(sent.url).toBe('/openai/deployments/gpt-35-turbo/chat/completions?api-version=2024-10-21');
      expect(sent.headers['api-key']).toBe('azure-secret');
      expect(sent.headers.authorization).toBeUndefined();
      return { prompt: completion.usage!.prompt_tokens, completion: completion.usage!.completion_tokens };
    });
  });

  it('streams, forcing stream usage upstream without showing it to the client', async () => {
    await expectCharged(f, MODEL, channelId, async () => {
      const stream = await client.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'stream azure' }],
        stream: true,
      });
      const { text, usage } = await readChatStream(stream);
      expect(text).toContain('stream azure');
      expect(usage).toBeUndefined();
      const sent = f.mock.lastRequest()!;
      expect(sent.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
      return { prompt: mockPromptTokens('stream azure'), completion: mockCompletionTokens(text) };
    });
  });

  it('serves Anthropic SDK clients through the chat hub', async () => {
    const anthropic = new Anthropic({ apiKey: key, baseURL: f.baseUrl, maxRetries: 0 });
    await expectCharged(f, MODEL, channelId, async () => {
      const message = await anthropic.messages.create({
        model: MODEL,
        max_tokens: 100,
        messages: [{ role: 'user', content: 'hello from claude sdk' }],
      });
      const block = message.content[0];
      expect(block?.type === 'text' && block.text).toContain('hello from claude sdk');
      expect(f.mock.lastRequest()!.path).toBe('/openai/deployments/gpt-35-turbo/chat/completions');
      return { prompt: message.usage.input_tokens, completion: message.usage.output_tokens };
    });
  });

  it('sends Responses calls to the v1 API and transcriptions to the deployment', async () => {
    const response = await client.responses.create({ model: MODEL, input: 'azure responses' });
    expect(response.output_text).toBe(`Hello from mock ${MODEL}: azure responses`);
    let sent = f.mock.lastRequest()!;
    expect(sent.url).toBe('/openai/v1/responses?api-version=preview');
    expect(sent.headers['api-key']).toBe('azure-secret');
    const whisperId = await createAdapterChannel(f, { type: 3, key: 'azure-secret', models: 'whisper-1' });
    try {
      const transcript = await client.audio.transcriptions.create({
        model: 'whisper-1',
        file: await toFile(Buffer.alloc(16_000, 1), 'clip.mp3', { type: 'audio/mpeg' }),
      });
      expect(transcript.text).toBe('Hello from mock whisper-1: transcript of clip.mp3');
      sent = f.mock.lastRequest()!;
      expect(sent.url).toBe(
        '/openai/deployments/whisper-1/audio/transcriptions?api-version=2024-12-01-preview',
      );
    } finally {
      await deleteChannels(f, [whisperId]);
    }
  });

  it('reports a wrong Azure key as an upstream authentication error', async () => {
    const badId = await createAdapterChannel(f, { type: 3, key: 'sk-invalid', models: 'gpt-4o-mini' });
    try {
      await expect(
        client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }),
      ).rejects.toMatchObject({ status: 401, message: expect.stringContaining('Access denied') });
      expect(f.mock.lastRequest()!.headers['api-key']).toBe('sk-invalid');
    } finally {
      await deleteChannels(f, [badId]);
    }
  });
});

describe('Custom channels (type 8): the base URL is the full upstream URL', () => {
  const MODEL = 'gpt-4o-mini';
  let channelId: number;
  beforeAll(async () => {
    channelId = await createAdapterChannel(f, {
      type: 8,
      models: MODEL,
      base_url: `${f.mock.url}/v1/chat/completions?deployment={model}`,
    });
  });
  afterAll(async () => deleteChannels(f, [channelId]));

  it('replaces {model} in the URL and bills a JSON answer', async () => {
    await expectCharged(f, MODEL, channelId, async () => {
      const completion = await client.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'custom url' }],
      });
      expect(completion.choices[0]?.message.content).toBe(`Hello from mock ${MODEL}: custom url`);
      const sent = f.mock.lastRequest()!;
      expect(sent.url).toBe(`/v1/chat/completions?deployment=${MODEL}`);
      expect(sent.headers.authorization).toBe('Bearer sk-mock-upstream');
      return { prompt: completion.usage!.prompt_tokens, completion: completion.usage!.completion_tokens };
    });
  });

  it('forwards stream_options as the client sent them and bills the streamed usage', async () => {
    await expectCharged(f, MODEL, channelId, async () => {
      const stream = await client.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'custom stream' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      const { text, usage } = await readChatStream(stream);
      expect(text).toBe(`Hello from mock ${MODEL}: custom stream`);
      expect(f.mock.lastRequest()!.body).toMatchObject({ stream_options: { include_usage: true } });
      const reported = usage as { prompt_tokens: number; completion_tokens: number };
      return { prompt: reported.prompt_tokens, completion: reported.completion_tokens };
    });
  });
});
