import { parseServerSentEvents, parseServerSentJson } from '@switchyard/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChannel,
  createToken,
  type RelayFixture,
  relayPost,
  startRelayFixture,
} from '../relay/relay-support.ts';
import { expectBilled } from './protocol-support.ts';

const GEMINI = 'gemini-2.0-flash';
const GPT = 'gpt-4o-mini';

// biome-ignore lint/suspicious/noExplicitAny: Gemini bodies are read loosely, field by field.
type Loose = any;

describe('Gemini clients calling /v1beta/models/{model}:generateContent', () => {
  let f: RelayFixture;
  let key: string;
  let geminiChannel: number;
  let openAIChannel: number;
  const gemini = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    relayPost(f, null, body, { path, headers: { 'x-goog-api-key': key, ...headers } });
  const contents = (text: string) => ({ contents: [{ role: 'user', parts: [{ text }] }] });

  beforeAll(async () => {
    f = await startRelayFixture();
    geminiChannel = await createChannel(f, { name: 'gemini', type: 24, models: GEMINI });
    openAIChannel = await createChannel(f, { name: 'openai', type: 1, models: GPT });
    ({ key } = await createToken(f.root));
  });
  afterAll(async () => f.close());

  it('passes a generateContent call through to a Gemini channel and bills usageMetadata', async () => {
    await expectBilled(
      f,
      GEMINI,
      async () => {
        const reply = await gemini(`/v1beta/models/${GEMINI}:generateContent`, contents('hello gemini'));
        expect(reply.status).toBe(200);
        const body: Loose = reply.json;
        expect(body.candidates[0].content.parts[0].text).toContain(`Hello from mock ${GEMINI}`);
        const sent = f.mock.lastRequest()!;
        expect(sent.path).toBe(`/v1beta/models/${GEMINI}:generateContent`);
        expect(sent.headers['x-goog-api-key']).toBe('sk-mock-upstream');
        return {
          prompt: body.usageMetadata.promptTokenCount,
          completion: body.usageMetadata.candidatesTokenCount,
        };
      },
      geminiChannel,
    );
  });

  it('streams with alt=sse and the key in the query, never forwarding the client key', async () => {
    await expectBilled(
      f,
      GEMINI,
      async () => {
        const reply = await relayPost(f, null, contents('stream gemini [[mock:chunks-4]]'), {
          path: `/v1beta/models/${GEMINI}:streamGenerateContent?alt=sse&key=${key}`,
        });
        expect(reply.status).toBe(200);
        const events = parseServerSentJson(reply.text) as Loose[];
        const text = events.map((event) => event.candidates?.[0]?.content?.parts?.[0]?.text ?? '').join('');
        expect(text).toContain(`Hello from mock ${GEMINI}`);
        const sent = f.mock.lastRequest()!;
        expect(sent.url).not.toContain(key.replace(/^sk-/, ''));
        const usage = events.at(-1).usageMetadata;
        return { prompt: usage.promptTokenCount, completion: usage.candidatesTokenCount };
      },
      geminiChannel,
    );
  });

  it('converts a Gemini call for an OpenAI-type channel and answers in the Gemini shape', async () => {
    await expectBilled(
      f,
      GPT,
      async () => {
        const reply = await gemini(`/v1beta/models/${GPT}:generateContent`, {
          systemInstruction: { parts: [{ text: 'be brief' }] },
          ...contents('hello converted'),
        });
        expect(reply.status).toBe(200);
        const body: Loose = reply.json;
        expect(body.candidates[0].content.role).toBe('model');
        expect(body.candidates[0].content.parts[0].text).toContain(`Hello from mock ${GPT}`);
        expect(body.candidates[0].finishReason).toBe('STOP');
        expect(f.mock.lastRequest()!.path).toBe('/v1/chat/completions');
        return {
          prompt: body.usageMetadata.promptTokenCount,
          completion: body.usageMetadata.candidatesTokenCount,
        };
      },
      openAIChannel,
    );
  });

  it('streams a converted call as Gemini SSE chunks', async () => {
    const reply = await gemini(
      `/v1beta/models/${GPT}:streamGenerateContent?alt=sse`,
      contents('converted stream'),
    );
    expect(reply.status).toBe(200);
    const events = parseServerSentJson(reply.text) as Loose[];
    const text = events.map((event) => event.candidates?.[0]?.content?.parts?.[0]?.text ?? '').join('');
    expect(text).toContain(`Hello from mock ${GPT}`);
    expect(events.at(-1).usageMetadata.candidatesTokenCount).toBeGreaterThan(0);
  });

  it('ends a pass-through stream at a malformed event with a Google error event', async () => {
    const reply = await gemini(
      `/v1beta/models/${GEMINI}:streamGenerateContent?alt=sse`,
      contents('broken [[mock:chunks-5,bad-json-event]]'),
    );
    expect(reply.status).toBe(200);
    const events = parseServerSentEvents(reply.text);
    const last = JSON.parse(events.at(-1)!.data) as Loose;
    expect(last.error).toMatchObject({ code: 502, message: expect.stringContaining('malformed') });
    expect(events.filter((event) => event.data.includes('finishReason'))).toHaveLength(0);
  });

  it('refuses a wrong key in the Google error shape', async () => {
    const reply = await relayPost(f, null, contents('x'), {
      path: `/v1beta/models/${GEMINI}:generateContent`,
      headers: { 'x-goog-api-key': 'sk-wrong' },
    });
    expect(reply.status).toBe(401);
    expect(reply.json.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
  });

  it('lists models in the Gemini shape', async () => {
    const response = await fetch(`${f.baseUrl}/v1beta/models?key=${key}`);
    const body: Loose = await response.json();
    expect(body.models.map((model: Loose) => model.name)).toEqual(
      expect.arrayContaining([`models/${GEMINI}`, `models/${GPT}`]),
    );
  });
});
