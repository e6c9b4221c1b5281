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
import { geminiAdapter } from './gemini-adapter.js';

const url = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);
const call = parseOpenAIChatRequest({
  json: { model: 'gemini-2.5-flash', stream: true, messages: [{ role: 'user', content: 'hi' }] },
});

async function partsFrom(sse: string): Promise<StreamPart[]> {
  return collectStream(
    streamOf(splitEvery(toBytes(sse), 29))
      .pipeThrough(createSseParserStream())
      .pipeThrough(geminiAdapter.toStreamParts(call)),
  );
}
const parts = (name: string) => partsFrom(loadChunksFixture(url(name)).replaceAll('\n\n', '\r\n\r\n'));
const text = (list: StreamPart[], type: 'text-delta' | 'reasoning-delta') =>
  list.flatMap((part) => (part.type === type ? [part.delta] : [])).join('');

describe('geminiAdapter.toStreamParts', () => {
  it('converts a text stream (CRLF framed) with usage', async () => {
    const result = await parts('gemini-stream.chunks.txt');
    expect(result[0]).toEqual({
      type: 'message-start',
      id: 't1-taJ7dBdS41dkPxa6x6Ak',
      model: 'gemini-2.0-flash',
    });
    expect(text(result, 'text-delta')).toBe('Hello! How can I "help" you today? 👋');
    expect(result.at(-2)).toEqual({ type: 'finish', index: 0, reason: 'stop', rawReason: 'STOP' });
    const last = result.at(-1);
    expect(last?.type === 'usage' && last.usage.inputTokens.total).toBe(6);
    expect(last?.type === 'usage' && last.usage.outputTokens.total).toBe(12);
  });

  it('converts thoughts, function calls, cached and thought tokens', async () => {
    const result = await parts('gemini-stream-thinking-tool.chunks.txt');
    expect(text(result, 'reasoning-delta')).toBe(
      '**Planning the lookup**\n\nI need the current weather, so I will call get_weather for Paris.',
    );
    expect(text(result, 'text-delta')).toBe('Let me check.');
    const calls = result.filter((part) => part.type === 'tool-call-delta');
    expect(
      calls.map(
        (part) => part.type === 'tool-call-delta' && [part.toolCallIndex, part.name, part.argumentsDelta],
      ),
    ).toEqual([
      [0, 'get_weather', '{"location":"Paris","unit":"celsius"}'],
      [1, 'get_time', '{"tz":"Europe/Paris"}'],
    ]);
    expect(
      calls.every((part) => part.type === 'tool-call-delta' && /^call_[0-9a-f]{32}$/.test(part.id ?? '')),
    ).toBe(true);
    expect(result.find((part) => part.type === 'finish')).toEqual({
      type: 'finish',
      index: 0,
      reason: 'tool-calls',
      rawReason: 'STOP',
    });
    const usage = result.at(-1);
    expect(usage?.type === 'usage' && usage.usage).toMatchObject({
      inputTokens: { total: 2150, uncached: 102, cacheRead: 2048 },
      outputTokens: { total: 111, reasoning: 84 },
    });
  });

  it('renders code execution as fences and maps SAFETY to content-filter', async () => {
    const code = await parts('gemini-stream-code-execution.chunks.txt');
    expect(text(code, 'text-delta')).toBe(
      '\n```python\nprint(sum(range(1, 11)))\n```\n\n```output\n55\n\n```\nThe sum is 55.',
    );
    const usage = code.at(-1);
    expect(usage?.type === 'usage' && usage.usage.inputTokens.total).toBe(25);
    const safety = await parts('gemini-stream-safety.chunks.txt');
    expect(safety.find((part) => part.type === 'finish')).toEqual({
      type: 'finish',
      index: 0,
      reason: 'content-filter',
      rawReason: 'SAFETY',
    });
  });

  it('reports in-stream errors and streams that end without a finish reason', async () => {
    const failed = await partsFrom(
      'data: {"candidates": [{"content": {"parts": [{"text": "Hi"}],"role": "model"},"index": 0}]}\r\n\r\n' +
        'data: {"error": {"code": 500,"message": "Internal error encountered.","status": "INTERNAL"}}\r\n\r\n',
    );
    const error = failed.at(-1);
    expect(error?.type === 'error' && [error.error.code, error.error.message, error.error.type]).toEqual([
      'upstream:stream_error',
      'Internal error encountered.',
      'INTERNAL',
    ]);
    const cut = await partsFrom(
      'data: {"candidates": [{"content": {"parts": [{"text": "Hi"}],"role": "model"},"index": 0}]}\r\n\r\n' +
        'data: {"candidates": [{"content": {"parts": [{"text":\r\n\r\n',
    );
    expect(cut.map((part) => part.type)).toEqual(['message-start', 'text-delta', 'error']);
    const last = cut.at(-1);
    expect(last?.type === 'error' && last.error.message).toBe('upstream sent a malformed stream event');
    const early = await partsFrom(
      'data: {"candidates": [{"content": {"parts": [{"text": "Hi"}],"role": "model"},"index": 0}]}\r\n\r\n',
    );
    const end = early.at(-1);
    expect(end?.type === 'error' && end.error.message).toBe(
      'the upstream stream ended before a finish reason',
    );
  });
});

describe('geminiAdapter.toResponse and readUsage', () => {
  it('converts a text response', () => {
    const response = geminiAdapter.toResponse(loadJsonFixture(url('gemini-generate.json')), call);
    expect(response).toMatchObject({
      id: 'kV6taL2pJ4Ob1dkP2oKQqAs',
      model: 'gemini-2.0-flash',
      choices: [
        {
          index: 0,
          text: 'Paris is the capital of France.',
          toolCalls: [],
          finishReason: 'stop',
          rawFinishReason: 'STOP',
        },
      ],
      usage: { inputTokens: { total: 9 }, outputTokens: { total: 8, reasoning: 0 } },
    });
  });

  it('converts thoughts and function calls, with cached and thought tokens', () => {
    const response = geminiAdapter.toResponse(
      loadJsonFixture(url('gemini-generate-thinking-tool.json')),
      call,
    );
    const choice = response.choices[0]!;
    expect(choice.reasoning).toContain('The user wants the weather in Paris');
    expect(choice.text).toBe('');
    expect(choice.toolCalls.map((toolCall) => [toolCall.name, toolCall.arguments])).toEqual([
      ['get_weather', '{"location":"Paris","unit":"celsius"}'],
    ]);
    expect(choice.finishReason).toBe('tool-calls');
    expect(response.usage).toMatchObject({
      inputTokens: { total: 2150, cacheRead: 2048, uncached: 102 },
      outputTokens: { total: 105, reasoning: 84 },
    });
  });

  it('maps safety blocks of the answer and of the prompt', () => {
    const blocked = geminiAdapter.toResponse(loadJsonFixture(url('gemini-safety-blocked.json')), call);
    expect(blocked.choices).toEqual([
      {
        index: 0,
        text: '',
        reasoning: undefined,
        toolCalls: [],
        finishReason: 'content-filter',
        rawFinishReason: 'SAFETY',
      },
    ]);
    const prompt = geminiAdapter.toResponse(loadJsonFixture(url('gemini-prompt-blocked.json')), call);
    expect(prompt.choices[0]).toMatchObject({
      finishReason: 'content-filter',
      rawFinishReason: 'PROHIBITED_CONTENT',
    });
  });

  it('reads usage from body text, SSE events and parsed chunks', () => {
    const body = JSON.stringify(loadJsonFixture(url('gemini-generate-thinking-tool.json')), null, 2);
    expect(geminiAdapter.readUsage(body)?.outputTokens).toEqual({ total: 105, reasoning: 84, audio: 0 });
    expect(geminiAdapter.readUsage({ data: '{"candidates":[]}' })).toBeUndefined();
    expect(
      geminiAdapter.readUsage({ data: '{"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":2}}' })
        ?.inputTokens.total,
    ).toBe(3);
    expect(geminiAdapter.readUsage({ usageMetadata: { promptTokenCount: 4 } })?.inputTokens.total).toBe(4);
    expect(
      geminiAdapter.readUsage(
        '[{"usageMetadata":{"promptTokenCount":1}},{"usageMetadata":{"promptTokenCount":5}}]',
      )?.inputTokens.total,
    ).toBe(5);
  });
});
