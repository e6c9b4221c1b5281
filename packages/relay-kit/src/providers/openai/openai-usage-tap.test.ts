import { describe, expect, it } from 'vitest';
import type { PassthroughTapOptions, PassthroughTapResult } from '../../spec/passthrough-tap.js';
import {
  collectText,
  loadChunksFixture,
  splitAt,
  splitEvery,
  streamOf,
  toBytes,
} from '../../testing/sse-fixtures.js';
import { createOpenAIUsageTap } from './openai-usage-tap.js';

const fixture = (name: string) => loadChunksFixture(new URL(`./__fixtures__/${name}`, import.meta.url));
const decoder = new TextDecoder();

/** Runs chunks through a tap with push/finish; returns the forwarded text and the result. */
function runTap(chunks: Uint8Array[], options: PassthroughTapOptions = {}) {
  const tap = createOpenAIUsageTap({ now: () => 0, ...options });
  const outputs: Uint8Array[] = [];
  for (const chunk of chunks) outputs.push(tap.push(chunk));
  outputs.push(tap.finish());
  const bytes = Buffer.concat(outputs.map((chunk) => Buffer.from(chunk)));
  return { text: decoder.decode(bytes), result: tap.result(), outputs };
}

/** Removes the usage-only event from an SSE text (what the client should see when it is dropped). */
function withoutUsageOnlyEvent(sse: string): string {
  return sse.replace(/data: \{[^\n]*"choices":\[\],"usage":\{[^\n]*\n\n/, '');
}

describe('createOpenAIUsageTap', () => {
  const stream = fixture('openai-chat-stream.chunks.txt');

  it('forwards every chunk unchanged (same objects) and reads usage, finish reason and ids', () => {
    const chunks = splitEvery(toBytes(stream), 97);
    const { text, result, outputs } = runTap(chunks);
    expect(text).toBe(stream);
    outputs.slice(0, -1).forEach((output, index) => {
      expect(output).toBe(chunks[index]);
    });
    expect(result.usage?.inputTokens).toEqual({
      total: 1234,
      uncached: 210,
      cacheRead: 1024,
      cacheWrite: 0,
      audio: 0,
    });
    expect(result.usage?.outputTokens).toEqual({ total: 9, reasoning: 0, audio: 0 });
    expect(result.finishReason).toBe('stop');
    expect(result.rawFinishReason).toBe('stop');
    expect(result.sawDone).toBe(true);
    expect(result.eventCount).toBe(7);
    expect(result.responseId).toBe('chatcmpl-C3xKq1Yy7Dz2sVh9');
    expect(result.model).toBe('gpt-4o-mini-2024-07-18');
    expect(result.droppedUsageChunk).toBe(false);
    expect(result.generated.text).toBe('Hello! How can I "help" you today?');
  });

  it('gives the same result whatever the chunking (every split position)', () => {
    const bytes = toBytes(stream);
    const reference = runTap([bytes]).result;
    for (let offset = 1; offset < bytes.length; offset += 7) {
      const { text, result } = runTap(splitAt(bytes, [offset]));
      expect(text).toBe(stream);
      expect(result).toEqual(reference);
    }
    expect(runTap(splitEvery(bytes, 1)).result).toEqual(reference);
  });

  it('drops the usage-only chunk when the client did not ask for usage, at any split', () => {
    const expected = withoutUsageOnlyEvent(stream);
    expect(expected).not.toBe(stream);
    for (const size of [1, 2, 3, 13, 64, 500, 100_000]) {
      const { text, result } = runTap(splitEvery(toBytes(stream), size), { dropUsageOnlyChunk: true });
      expect(text).toBe(expected);
      expect(result.droppedUsageChunk).toBe(true);
      expect(result.usage?.inputTokens.total).toBe(1234);
    }
  });

  it('keeps the usage chunk when the client asked for it', () => {
    const { text, result } = runTap([toBytes(stream)], { dropUsageOnlyChunk: false });
    expect(text).toBe(stream);
    expect(result.droppedUsageChunk).toBe(false);
  });

  it('never drops a chunk that carries choices as well as usage', () => {
    const deepseek = fixture('deepseek-reasoner-stream.chunks.txt');
    const { text, result } = runTap(splitEvery(toBytes(deepseek), 50), { dropUsageOnlyChunk: true });
    expect(text).toBe(deepseek);
    expect(result.droppedUsageChunk).toBe(false);
    expect(result.usage?.outputTokens).toEqual({ total: 30, reasoning: 25, audio: 0 });
    expect(result.generated.text).toBe('The user asks 1+1. That is 2.2');
  });

  it('collects text when there is no usage', () => {
    const noUsage = fixture('openai-chat-stream-no-usage.chunks.txt');
    const { text, result } = runTap(splitEvery(toBytes(noUsage), 33), { dropUsageOnlyChunk: true });
    expect(text).toBe(noUsage);
    expect(result.usage).toBeUndefined();
    expect(result.finishReason).toBe('length');
    expect(result.generated).toEqual({
      text: 'The capital of France is Paris.',
      chars: 31,
      toolCallCount: 0,
    });
  });

  it('collects tool call names and arguments', () => {
    const tools = fixture('openai-chat-tool-calls-stream.chunks.txt');
    const { result } = runTap([toBytes(tools)]);
    expect(result.finishReason).toBe('tool-calls');
    expect(result.generated.toolCallCount).toBe(2);
    expect(result.generated.text).toBe('get_weather{"location": "Paris"}get_time{"tz": "Europe/Paris"}');
  });

  it('handles splits inside UTF-8 sequences and escaped surrogates', () => {
    const unicode = fixture('openai-chat-stream-unicode.chunks.txt');
    const bytes = toBytes(unicode);
    const reference = runTap([bytes]);
    expect(reference.result.generated.text).toBe('你好，世界！ 😀👍🏽 naïve caféé😀\n');
    for (let offset = 1; offset < bytes.length; offset++) {
      const { text, result } = runTap(splitAt(bytes, [offset]), { dropUsageOnlyChunk: true });
      expect(text).toBe(withoutUsageOnlyEvent(unicode));
      expect(result.generated.text).toBe(reference.result.generated.text);
    }
  });

  it('tolerates an invalid JSON event and keeps forwarding', () => {
    const broken = `data: {"id":"x","choices":[{"index":0,"delta":{"content":"ok"}}]}\n\ndata: {"usage": {broken\n\n${stream}`;
    const { text, result } = runTap(splitEvery(toBytes(broken), 40), { dropUsageOnlyChunk: true });
    expect(text).toBe(withoutUsageOnlyEvent(broken));
    expect(result.malformedEvents).toBe(1);
    expect(result.usage?.inputTokens.total).toBe(1234);
  });

  it('keeps the text of an event whose usage is not valid JSON', () => {
    const broken = 'data: {"choices":[{"delta":{"content":"kept"}}],"usage":{"prompt_tokens":}}\n\n';
    const { result } = runTap([toBytes(broken)]);
    expect(result.generated.text).toBe('kept');
    expect(result.usage).toBeUndefined();
    expect(result.malformedEvents).toBe(1);
  });

  it('accepts CRLF line ends and data without a space', () => {
    const crlf = stream.replaceAll('data: ', 'data:').replaceAll('\n', '\r\n');
    const { text, result } = runTap(splitEvery(toBytes(crlf), 10), { dropUsageOnlyChunk: true });
    expect(result.usage?.inputTokens.total).toBe(1234);
    expect(text).toBe(crlf.replace(/data:\{[^\r\n]*"choices":\[\],"usage":\{[^\r\n]*\r\n\r\n/, ''));
  });

  it('forwards comments and unknown lines untouched', () => {
    const withComments = `: OPENROUTER PROCESSING\n\nevent: message\n${stream}`;
    const { text, result } = runTap(splitEvery(toBytes(withComments), 9), { dropUsageOnlyChunk: true });
    expect(text).toBe(withoutUsageOnlyEvent(withComments));
    expect(result.finishReason).toBe('stop');
  });

  it('reads usage sent inside the finish chunk (compatible upstreams) and in choices (Moonshot)', () => {
    const inChoice =
      'data: {"id":"m1","object":"chat.completion.chunk","model":"moonshot-v1-8k","choices":[{"index":0,"delta":{},"finish_reason":"stop","usage":{"prompt_tokens":8,"completion_tokens":3,"total_tokens":11}}]}\n\ndata: [DONE]\n\n';
    const { text, result } = runTap([toBytes(inChoice)], { dropUsageOnlyChunk: true });
    expect(text).toBe(inChoice);
    expect(result.usage?.inputTokens.total).toBe(8);
    expect(result.usage?.outputTokens.total).toBe(3);
  });

  it('processes a last line without a line end', () => {
    const truncated = stream.replace(/\n\ndata: \[DONE\]\n\n$/, '');
    const { text, result } = runTap(splitEvery(toBytes(truncated), 64));
    expect(text).toBe(truncated);
    expect(result.usage?.inputTokens.total).toBe(1234);
    expect(result.sawDone).toBe(false);
  });

  it('withholds [DONE] and writes the endOfStream trailer instead', () => {
    const noUsage = fixture('openai-chat-stream-no-usage.chunks.txt');
    let seen: PassthroughTapResult | undefined;
    const { text } = runTap(splitEvery(toBytes(noUsage), 21), {
      endOfStream: (result) => {
        seen = result;
        return 'data: {"synthetic":true}\n\ndata: [DONE]\n\n';
      },
    });
    expect(seen?.sawDone).toBe(true);
    expect(text).toBe(noUsage.replace('data: [DONE]\n\n', 'data: {"synthetic":true}\n\ndata: [DONE]\n\n'));
  });

  it('records an error event sent mid-stream', () => {
    const failing =
      'data: {"id":"e1","choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\ndata: {"error":{"message":"The server had an error while processing your request.","type":"server_error","code":null}}\n\n';
    const { text, result } = runTap([toBytes(failing)]);
    expect(text).toBe(failing);
    expect(result.error?.code).toBe('upstream:stream_error');
    expect(result.error?.message).toBe('The server had an error while processing your request.');
    expect(result.error?.retryable).toBe(false);
  });

  it('records the first event time and skips text collection when disabled', () => {
    let clock = 1000;
    const tap = createOpenAIUsageTap({ collectText: false, now: () => clock++ });
    tap.push(toBytes(': ping\n\n'));
    expect(tap.result().firstEventAt).toBeUndefined();
    tap.push(toBytes(stream));
    tap.finish();
    expect(tap.result().firstEventAt).toBe(1000);
    expect(tap.result().generated.text).toBe('');
    expect(tap.result().usage?.inputTokens.total).toBe(1234);
  });

  it('caps collected text but counts every character', () => {
    const { result } = runTap([toBytes(fixture('openai-chat-stream-no-usage.chunks.txt'))], {
      maxCollectedChars: 10,
    });
    expect(result.generated.text).toBe('The capita');
    expect(result.generated.chars).toBe(31);
  });

  it('works as a TransformStream', async () => {
    const tap = createOpenAIUsageTap({ dropUsageOnlyChunk: true });
    const output = await collectText(streamOf(splitEvery(toBytes(stream), 100)).pipeThrough(tap.stream()));
    expect(output).toBe(withoutUsageOnlyEvent(stream));
    expect(tap.result().usage?.outputTokens.total).toBe(9);
    expect(() => tap.stream()).toThrow();
  });

  it('ignores pushes after finish', () => {
    const tap = createOpenAIUsageTap();
    tap.finish();
    expect(tap.finish().length).toBe(0);
    const chunk = toBytes(stream);
    expect(tap.push(chunk)).toBe(chunk);
    expect(tap.result().eventCount).toBe(0);
  });
});
