import { describe, expect, it } from 'vitest';
import { geminiAdapter } from '../../providers/gemini/gemini-adapter.js';
import { openAIAdapter } from '../../providers/openai/openai-adapter.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { StreamPart } from '../../spec/stream-part.js';
import { UpstreamError } from '../../spec/upstream-error.js';
import { createUsage } from '../../spec/usage.js';
import { createSseParserStream, parseSseText } from '../../sse/sse-parser.js';
import {
  collectText,
  loadChunksFixture,
  loadJsonFixture,
  streamOf,
  toBytes,
} from '../../testing/sse-fixtures.js';
import { geminiCodec } from './gemini-codec.js';

const openAIFixture = (name: string) =>
  new URL(`../../providers/openai/__fixtures__/${name}`, import.meta.url);
const geminiFixture = (name: string) =>
  new URL(`../../providers/gemini/__fixtures__/${name}`, import.meta.url);
const streamPath = '/v1beta/models/gemini-2.5-flash:streamGenerateContent';
const sseQuery = new URLSearchParams('alt=sse');

function geminiCall(
  body: Record<string, unknown>,
  stream = true,
  query: URLSearchParams | undefined = sseQuery,
): RelayCall {
  return geminiCodec.parseRequest({
    json: body,
    path: stream ? streamPath : '/v1beta/models/gemini-2.5-flash:generateContent',
    query,
  });
}
const simple = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };

async function throughOpenAI(call: RelayCall, fixture: string, options = {}): Promise<string> {
  const sse = loadChunksFixture(openAIFixture(fixture));
  return collectText(
    streamOf([toBytes(sse)])
      .pipeThrough(createSseParserStream())
      .pipeThrough(openAIAdapter.toStreamParts(geminiCodec.toChatCall!(call)))
      .pipeThrough(geminiCodec.toClientStream(call, options)),
  );
}
const events = (text: string) => parseSseText(text).map((event) => JSON.parse(event.data));

describe('OpenAI upstream → Gemini client (toClientStream / toClientResponse)', () => {
  it('writes SSE chunks with whole function calls and usage on the last event', async () => {
    const call = geminiCall(simple);
    const chunks = events(await throughOpenAI(call, 'openai-chat-tool-calls-stream.chunks.txt'));
    expect(chunks).toEqual([
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { functionCall: { name: 'get_weather', args: { location: 'Paris' } } },
                { functionCall: { name: 'get_time', args: { tz: 'Europe/Paris' } } },
              ],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 88, candidatesTokenCount: 41, totalTokenCount: 129 },
        modelVersion: 'gpt-4o-2024-08-06',
        responseId: 'chatcmpl-C3xMtool',
      },
    ]);
  });

  it('writes text and thoughts, cached and thought tokens', async () => {
    const call = geminiCall(simple);
    const text = await throughOpenAI(call, 'openai-chat-stream.chunks.txt');
    expect(text).toContain('\r\n\r\n');
    const chunks = events(text);
    expect(
      chunks
        .slice(0, -1)
        .map((chunk) => chunk.candidates[0].content.parts[0].text)
        .join(''),
    ).toBe('Hello! How can I "help" you today?');
    expect(chunks.at(-1)).toMatchObject({
      candidates: [{ content: { parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: 1234,
        candidatesTokenCount: 9,
        totalTokenCount: 1243,
        cachedContentTokenCount: 1024,
      },
    });
    const reasoning = events(await throughOpenAI(call, 'deepseek-reasoner-stream.chunks.txt'));
    expect(reasoning[0].candidates[0].content.parts[0]).toEqual({
      text: 'The user asks 1+1.',
      thought: true,
    });
    expect(reasoning.at(-1).usageMetadata).toEqual({
      promptTokenCount: 20,
      candidatesTokenCount: 5,
      totalTokenCount: 50,
      thoughtsTokenCount: 25,
    });
  });

  it('writes the JSON-array form when the client did not ask for SSE, and applies resolveUsage', async () => {
    const call = geminiCall(simple, true, new URLSearchParams());
    const text = await throughOpenAI(call, 'openai-chat-stream-no-usage.chunks.txt', {
      resolveUsage: (usage: unknown) => usage ?? createUsage({ inputTotal: 5, outputTotal: 7 }),
    });
    expect(text.startsWith('[{"candidates"')).toBe(true);
    expect(text).toContain('}\r\n,{');
    const chunks = JSON.parse(text);
    expect(chunks.at(-1).usageMetadata).toEqual({
      promptTokenCount: 5,
      candidatesTokenCount: 7,
      totalTokenCount: 12,
    });
    const empty = await collectText(streamOf<StreamPart>([]).pipeThrough(geminiCodec.toClientStream(call)));
    expect(empty).toBe('[]');
  });

  it('ends with a Google error event on an error part', async () => {
    const error = new UpstreamError({
      status: 200,
      code: 'upstream:stream_error',
      message: 'cut',
      retryable: false,
      channelFault: false,
    });
    const parts: StreamPart[] = [
      { type: 'text-delta', index: 0, delta: 'Hi' },
      { type: 'error', error },
      { type: 'text-delta', index: 0, delta: 'ignored' },
    ];
    const sse = await collectText(
      streamOf(parts).pipeThrough(geminiCodec.toClientStream(geminiCall(simple))),
    );
    expect(events(sse).at(-1)).toEqual({ error: { code: 500, message: 'cut', status: 'INTERNAL' } });
    expect(events(sse)).toHaveLength(2);
    const array = await collectText(
      streamOf(parts).pipeThrough(
        geminiCodec.toClientStream(geminiCall(simple, true, new URLSearchParams())),
      ),
    );
    expect(JSON.parse(array)[1]).toEqual({ error: { code: 500, message: 'cut', status: 'INTERNAL' } });
  });

  it('writes a converted non-stream response', () => {
    const call = geminiCall(simple, false);
    const response = openAIAdapter.toResponse(
      loadJsonFixture(openAIFixture('openai-chat.json')),
      geminiCodec.toChatCall!(call),
    );
    expect(JSON.parse(geminiCodec.toClientResponse(response, call))).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'get_weather', args: { location: 'Paris' } } }],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 82, candidatesTokenCount: 17, totalTokenCount: 99 },
      modelVersion: 'gpt-4o-2024-08-06',
      responseId: 'chatcmpl-C3xNonStream',
    });
    const length = geminiCodec.toClientResponse(
      {
        id: '',
        model: '',
        created: 1,
        choices: [{ index: 0, text: 'a', reasoning: 'r', toolCalls: [], finishReason: 'length' }],
        raw: {},
      },
      call,
    );
    expect(JSON.parse(length)).toMatchObject({
      candidates: [
        { content: { parts: [{ text: 'r', thought: true }, { text: 'a' }] }, finishReason: 'MAX_TOKENS' },
      ],
      modelVersion: 'gemini-2.5-flash',
    });
  });
});

describe('Gemini upstream → Gemini client through the conversion path', () => {
  it('reshapes an SSE upstream into the JSON array and reports a cut stream', async () => {
    const call = geminiCall(simple, true, new URLSearchParams());
    const sse = loadChunksFixture(geminiFixture('gemini-stream-thinking-tool.chunks.txt'));
    const text = await collectText(
      streamOf([toBytes(sse)])
        .pipeThrough(createSseParserStream())
        .pipeThrough(geminiAdapter.toStreamParts(call))
        .pipeThrough(geminiCodec.toClientStream(call)),
    );
    const chunks = JSON.parse(text);
    expect(chunks.at(-1)).toMatchObject({
      candidates: [
        {
          content: {
            parts: [{ functionCall: { name: 'get_weather' } }, { functionCall: { name: 'get_time' } }],
          },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: {
        promptTokenCount: 2150,
        candidatesTokenCount: 27,
        thoughtsTokenCount: 84,
        cachedContentTokenCount: 2048,
        totalTokenCount: 2261,
      },
      responseId: 'hWCtaMeYKqKv1dkPpJ-Q4Ao',
    });
    const cut = await collectText(
      streamOf([
        toBytes('data: {"candidates": [{"content": {"parts": [{"text": "Hi"}]}}]}\r\n\r\ndata: {"candid'),
      ])
        .pipeThrough(createSseParserStream())
        .pipeThrough(geminiAdapter.toStreamParts(call))
        .pipeThrough(geminiCodec.toClientStream(geminiCall(simple))),
    );
    // The last event was cut mid-JSON: it is reported as malformed.
    expect(events(cut).at(-1)).toMatchObject({
      error: { code: 502, message: 'upstream sent a malformed stream event' },
    });
  });
});
