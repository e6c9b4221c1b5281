import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseOpenAIChatRequest } from '../../protocols/openai-chat/openai-chat-codec.js';
import type { StreamPart } from '../../spec/stream-part.js';
import { createSseParserStream } from '../../sse/sse-parser.js';
import {
  collectStream,
  loadChunksFixture,
  loadJsonFixture,
  splitEvery,
  streamOf,
  toBytes,
} from '../../testing/sse-fixtures.js';
import { findBracesEnd, readOpenAIUsageFromText } from './convert-openai-usage.js';
import { openAIAdapter } from './openai-adapter.js';

const url = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);
const relayCall = parseOpenAIChatRequest({
  json: { model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'hi' }] },
});

async function parts(name: string): Promise<StreamPart[]> {
  const bytes = toBytes(loadChunksFixture(url(name)));
  return collectStream(
    streamOf(splitEvery(bytes, 37))
      .pipeThrough(createSseParserStream())
      .pipeThrough(openAIAdapter.toStreamParts(relayCall)),
  );
}

describe('openAIAdapter.toStreamParts', () => {
  it('converts a text stream', async () => {
    const result = await parts('openai-chat-stream.chunks.txt');
    expect(result[0]).toEqual({
      type: 'message-start',
      id: 'chatcmpl-C3xKq1Yy7Dz2sVh9',
      model: 'gpt-4o-mini-2024-07-18',
      created: 1754900000,
    });
    const text = result.flatMap((part) => (part.type === 'text-delta' ? [part.delta] : [])).join('');
    expect(text).toBe('Hello! How can I "help" you today?');
    expect(result.at(-2)).toEqual({ type: 'finish', index: 0, reason: 'stop', rawReason: 'stop' });
    const last = result.at(-1);
    expect(last?.type === 'usage' && last.usage.inputTokens.cacheRead).toBe(1024);
  });

  it('converts tool calls and reasoning', async () => {
    const tools = await parts('openai-chat-tool-calls-stream.chunks.txt');
    expect(tools.filter((part) => part.type === 'tool-call-delta')).toMatchInlineSnapshot(`
      [
        {
          "argumentsDelta": "",
          "id": "call_8Yq2",
          "index": 0,
          "name": "get_weather",
          "toolCallIndex": 0,
          "type": "tool-call-delta",
        },
        {
          "argumentsDelta": "{"location"",
          "id": undefined,
          "index": 0,
          "name": undefined,
          "toolCallIndex": 0,
          "type": "tool-call-delta",
        },
        {
          "argumentsDelta": ": "Paris"}",
          "id": undefined,
          "index": 0,
          "name": undefined,
          "toolCallIndex": 0,
          "type": "tool-call-delta",
        },
        {
          "argumentsDelta": "",
          "id": "call_Zr7m",
          "index": 0,
          "name": "get_time",
          "toolCallIndex": 1,
          "type": "tool-call-delta",
        },
        {
          "argumentsDelta": "{"tz": "Europe/Paris"}",
          "id": undefined,
          "index": 0,
          "name": undefined,
          "toolCallIndex": 1,
          "type": "tool-call-delta",
        },
      ]
    `);
    const reasoning = await parts('deepseek-reasoner-stream.chunks.txt');
    expect(
      reasoning
        .filter((part) => part.type === 'reasoning-delta')
        .map((part) => part.type === 'reasoning-delta' && part.delta),
    ).toEqual(['The user asks 1+1.', ' That is 2.']);
    expect(reasoning.map((part) => part.type).slice(-3)).toEqual(['text-delta', 'finish', 'usage']);
  });

  it('emits an error part for an in-stream error', async () => {
    const stream = streamOf([{ data: '{"error":{"message":"boom","type":"server_error"}}' }]).pipeThrough(
      openAIAdapter.toStreamParts(relayCall),
    );
    const [part] = await collectStream(stream);
    expect(part?.type === 'error' && [part.error.code, part.error.message]).toEqual([
      'upstream:stream_error',
      'boom',
    ]);
  });
});

describe('openAIAdapter.toResponse', () => {
  it('converts a tool call response', () => {
    const response = openAIAdapter.toResponse(loadJsonFixture(url('openai-chat.json')), relayCall);
    expect(response.choices).toEqual([
      {
        index: 0,
        text: '',
        reasoning: undefined,
        toolCalls: [{ id: 'call_abc123', name: 'get_weather', arguments: '{"location":"Paris"}' }],
        finishReason: 'tool-calls',
        rawFinishReason: 'tool_calls',
      },
    ]);
    expect(response.usage?.inputTokens.total).toBe(82);
    expect(response.model).toBe('gpt-4o-2024-08-06');
  });
});

describe('openAIAdapter.readUsage', () => {
  it('reads DeepSeek cache hits', () => {
    const usage = openAIAdapter.readUsage(loadJsonFixture(url('deepseek-chat-cache-hit.json')));
    expect(usage?.inputTokens).toEqual({
      total: 1540,
      uncached: 4,
      cacheRead: 1536,
      cacheWrite: 0,
      audio: 0,
    });
    const onlyDeepSeekFields = openAIAdapter.readUsage({
      usage: { prompt_cache_hit_tokens: 60, prompt_cache_miss_tokens: 40, completion_tokens: 5 },
    });
    expect(onlyDeepSeekFields?.inputTokens).toMatchObject({ total: 100, cacheRead: 60, uncached: 40 });
  });

  it('reads SSE events, body text and bodies without usage', () => {
    expect(
      openAIAdapter.readUsage({ data: '{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4}}' })
        ?.outputTokens.total,
    ).toBe(4);
    expect(openAIAdapter.readUsage({ data: '[DONE]' })).toBeUndefined();
    expect(openAIAdapter.readUsage({ id: 'x', choices: [] })).toBeUndefined();
    expect(openAIAdapter.readUsage({ usage: null })).toBeUndefined();
    expect(openAIAdapter.readUsage(readFileSync(url('openai-chat.json'), 'utf8'))?.inputTokens.total).toBe(
      82,
    );
  });

  it('reads the usage at the end of a large body without parsing the rest', () => {
    const embedding = Array.from({ length: 3072 }, (_, index) => Math.sin(index));
    const body = JSON.stringify({
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding }],
      model: 'text-embedding-3-large',
      usage: { prompt_tokens: 5, total_tokens: 5 },
    });
    expect(readOpenAIUsageFromText(body)?.inputTokens.total).toBe(5);
    expect(readOpenAIUsageFromText('{"usage":null}')).toBeUndefined();
    expect(
      readOpenAIUsageFromText('{"usage": { "prompt_tokens": 2, "note": "}" } }')?.inputTokens.total,
    ).toBe(2);
  });

  it('finds the usage object by its braces, and by the exact scan when a string holds a brace', () => {
    const read = (text: string) => readOpenAIUsageFromText(text)?.inputTokens.total;
    const nested =
      '{"id":"x","usage":{"prompt_tokens":7,"prompt_tokens_details":{"cached_tokens":2}},' +
      '"service_tier":"default","extra":{"a":{"b":1}}}';
    expect(read(nested)).toBe(7);
    expect(readOpenAIUsageFromText(nested)?.inputTokens.cacheRead).toBe(2);
    expect(read('{"usage":{"prompt_tokens":3,"note":"{"}}')).toBe(3);
    expect(read('{"usage":{"prompt_tokens":4,"note":"{{"},"more":{"x":"}"}}')).toBe(4);
    expect(read('{"usage":{"prompt_tokens":5,"note":"\\\\}"}}')).toBe(5);
    // Cut short: no usage from the slice, and the whole body is not JSON either.
    expect(read('{"usage":{"prompt_tokens":6,"details":{"cached_tokens":1}')).toBeUndefined();
  });

  it('findBracesEnd balances braces only', () => {
    expect(findBracesEnd('{}', 0)).toBe(1);
    expect(findBracesEnd('x{"a":{"b":{}}}y', 1)).toBe(14);
    expect(findBracesEnd('{"a":"}"}', 0)).toBe(6);
    expect(findBracesEnd('{"a":{', 0)).toBe(-1);
  });

  it('sanitises bad counts', () => {
    const usage = openAIAdapter.readUsage({
      usage: {
        prompt_tokens: 10,
        completion_tokens: -3,
        prompt_tokens_details: { cached_tokens: 50 },
        completion_tokens_details: { reasoning_tokens: 'x' },
      },
    });
    expect(usage?.inputTokens).toMatchObject({ total: 10, cacheRead: 10, uncached: 0 });
    expect(usage?.outputTokens).toEqual({ total: 0, reasoning: 0, audio: 0 });
  });
});
