import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAnthropicMessagesRequest } from '../../protocols/anthropic-messages/anthropic-messages-codec.js';
import type { StreamPart } from '../../spec/stream-part.js';
import { createSseParserStream, parseSseText } from '../../sse/sse-parser.js';
import { collectStream, splitEvery, streamOf, toBytes } from '../../testing/sse-fixtures.js';
import { anthropicAdapter } from './anthropic-adapter.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const call = parseAnthropicMessagesRequest({
  json: {
    model: 'claude-sonnet-4-20250514',
    stream: true,
    max_tokens: 100,
    messages: [{ role: 'user', content: 'hi' }],
  },
});

async function parts(name: string): Promise<StreamPart[]> {
  return collectStream(
    streamOf(splitEvery(toBytes(fixture(name)), 29))
      .pipeThrough(createSseParserStream())
      .pipeThrough(anthropicAdapter.toStreamParts(call)),
  );
}

function tapRun(name: string, chunkSize: number) {
  const bytes = toBytes(fixture(name));
  let clock = 100;
  const tap = anthropicAdapter.createPassthroughTap({ now: () => clock++ });
  const out: Uint8Array[] = [];
  for (const chunk of splitEvery(bytes, chunkSize)) out.push(tap.push(chunk));
  out.push(tap.finish());
  return { tap, forwarded: Buffer.concat(out), bytes };
}

describe('anthropicAdapter.createPassthroughTap', () => {
  it('forwards bytes unchanged and reads usage with the cache split', () => {
    for (const size of [1, 7, 64, 100_000]) {
      const { tap, forwarded, bytes } = tapRun('anthropic-stream-text.sse', size);
      expect(Buffer.compare(forwarded, Buffer.from(bytes))).toBe(0);
      const result = tap.result();
      expect(result.usage?.inputTokens).toEqual({
        total: 25 + 1500 + 3000,
        uncached: 25,
        cacheRead: 3000,
        cacheWrite: 1500,
        audio: 0,
      });
      expect(result.usage?.outputTokens.total).toBe(15);
      expect(result).toMatchObject({
        finishReason: 'stop',
        rawFinishReason: 'end_turn',
        sawDone: true,
        firstEventAt: 100,
        eventCount: 8,
        responseId: 'msg_01KqSRPm7X4cMHaH4wmF2Yuv',
        model: 'claude-sonnet-4-20250514',
        malformedEvents: 0,
        error: undefined,
      });
      expect(result.generated.text).toBe('Hello! Bonjour, "ça va" 🌍?');
    }
  });

  it('collects thinking, tool names and tool input for local counting', () => {
    const { tap } = tapRun('anthropic-stream-thinking-tool.sse', 13);
    const result = tap.result();
    expect(result.finishReason).toBe('tool-calls');
    expect(result.generated.toolCallCount).toBe(2);
    expect(result.generated.text).toBe(
      'The user asks about Paris weather. I will call the tool.' +
        "Okay, let's check." +
        'get_weather{"location": "Paris"}' +
        'get_time{"tz":"Europe/Paris"}',
    );
    expect(result.usage?.inputTokens).toMatchObject({ total: 2472, uncached: 472, cacheRead: 2000 });
    expect(result.usage?.outputTokens.total).toBe(89);
  });

  it('reports an in-stream error event', () => {
    const { tap } = tapRun('anthropic-stream-overloaded-error.sse', 50);
    const result = tap.result();
    expect(result.sawDone).toBe(false);
    expect(result.error).toMatchObject({
      code: 'upstream:stream_error',
      type: 'overloaded_error',
      message: 'Overloaded',
      retryable: false,
    });
    expect(result.usage?.inputTokens.total).toBe(9);
  });

  it('counts a broken event and notices the missing message_stop', () => {
    const { tap, forwarded, bytes } = tapRun('anthropic-stream-malformed.sse', 11);
    expect(forwarded.length).toBe(bytes.length);
    const result = tap.result();
    expect(result.sawDone).toBe(false);
    expect(result.malformedEvents).toBe(1);
    expect(result.finishReason).toBeUndefined();
    // The last event had no blank line after it; it still counts.
    expect(result.generated.text).toBe('Once upon a time');
    expect(result.usage?.outputTokens.total).toBe(1);
  });

  it('appends the endOfStream trailer and supports stream()', async () => {
    const tap = anthropicAdapter.createPassthroughTap({ endOfStream: (result) => `:${result.sawDone}\n\n` });
    const text = await collectStream(
      streamOf([toBytes(fixture('anthropic-stream-text.sse'))]).pipeThrough(tap.stream()),
    );
    expect(Buffer.concat(text).toString().endsWith(':true\n\n')).toBe(true);
  });
});

describe('anthropicAdapter.toStreamParts', () => {
  it('converts a text stream with usage', async () => {
    const result = await parts('anthropic-stream-text.sse');
    expect(result[0]).toEqual({
      type: 'message-start',
      id: 'msg_01KqSRPm7X4cMHaH4wmF2Yuv',
      model: 'claude-sonnet-4-20250514',
    });
    const text = result.flatMap((part) => (part.type === 'text-delta' ? [part.delta] : [])).join('');
    expect(text).toBe('Hello! Bonjour, "ça va" 🌍?');
    expect(result.at(-2)).toEqual({ type: 'finish', index: 0, reason: 'stop', rawReason: 'end_turn' });
    const last = result.at(-1);
    expect(last?.type).toBe('usage');
    if (last?.type === 'usage') {
      expect(last.usage.inputTokens).toMatchObject({ total: 4525, cacheRead: 3000, cacheWrite: 1500 });
      expect(last.usage.outputTokens.total).toBe(15);
    }
  });

  it('numbers tool calls and streams their arguments', async () => {
    const result = await parts('anthropic-stream-thinking-tool.sse');
    const reasoning = result
      .flatMap((part) => (part.type === 'reasoning-delta' ? [part.delta] : []))
      .join('');
    expect(reasoning).toBe('The user asks about Paris weather. I will call the tool.');
    expect(result.filter((part) => part.type === 'tool-call-delta')).toEqual([
      {
        type: 'tool-call-delta',
        index: 0,
        toolCallIndex: 0,
        id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
        name: 'get_weather',
        argumentsDelta: '',
      },
      { type: 'tool-call-delta', index: 0, toolCallIndex: 0, argumentsDelta: '{"location": "Par' },
      { type: 'tool-call-delta', index: 0, toolCallIndex: 0, argumentsDelta: 'is"}' },
      {
        type: 'tool-call-delta',
        index: 0,
        toolCallIndex: 1,
        id: 'toolu_01Vq8nLMKZ2pQqhYbB7aJc9E',
        name: 'get_time',
        argumentsDelta: '',
      },
      { type: 'tool-call-delta', index: 0, toolCallIndex: 1, argumentsDelta: '{"tz":"Europe/Paris"}' },
    ]);
    expect(result.find((part) => part.type === 'finish')).toEqual({
      type: 'finish',
      index: 0,
      reason: 'tool-calls',
      rawReason: 'tool_use',
    });
  });

  it('turns an error event into an error part', async () => {
    const result = await parts('anthropic-stream-overloaded-error.sse');
    const last = result.at(-1);
    expect(last?.type === 'error' && last.error.type).toBe('overloaded_error');
  });

  it('reads usage from single events', () => {
    const [start, , , , , , delta] = parseSseText(fixture('anthropic-stream-text.sse'));
    expect(anthropicAdapter.readUsage(start)?.inputTokens.uncached).toBe(25);
    expect(anthropicAdapter.readUsage(delta)?.outputTokens.total).toBe(15);
    expect(anthropicAdapter.readUsage({ data: '{"type":"ping"}' })).toBeUndefined();
  });
});
