import { describe, expect, it } from 'vitest';
import { loadChunksFixture, splitEvery, toBytes } from '../../testing/sse-fixtures.js';
import { concatBytes } from '../../util/bytes.js';
import { geminiAdapter } from './gemini-adapter.js';

const url = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);
const crlf = (name: string) => loadChunksFixture(url(name)).replaceAll('\n\n', '\r\n\r\n');

function run(bytes: Uint8Array, size: number, options = {}) {
  let clock = 100;
  const tap = geminiAdapter.createPassthroughTap({ now: () => clock++, ...options });
  const out: Uint8Array[] = [];
  for (const chunk of splitEvery(bytes, size)) {
    const forwarded = tap.push(chunk);
    expect(forwarded).toBe(chunk);
    out.push(forwarded);
  }
  out.push(tap.finish());
  return { output: concatBytes(out), result: tap.result() };
}

describe('Gemini pass-through tap', () => {
  it.each([1, 7, 64, 100_000])('forwards bytes unchanged and reads usage (chunks of %i bytes)', (size) => {
    const bytes = toBytes(crlf('gemini-stream-thinking-tool.chunks.txt'));
    const { output, result } = run(bytes, size);
    expect(output).toEqual(bytes);
    expect(result).toMatchObject({
      finishReason: 'tool-calls',
      rawFinishReason: 'STOP',
      firstEventAt: 100,
      eventCount: 3,
      sawDone: true,
      error: undefined,
      responseId: 'hWCtaMeYKqKv1dkPpJ-Q4Ao',
      model: 'gemini-2.5-flash',
      malformedEvents: 0,
    });
    expect(result.usage).toMatchObject({
      inputTokens: { total: 2150, cacheRead: 2048 },
      outputTokens: { total: 111, reasoning: 84 },
    });
    expect(result.generated.toolCallCount).toBe(2);
    expect(result.generated.text).toContain('Let me check.get_weather{"location":"Paris","unit":"celsius"}');
  });

  it('reads LF-framed streams and text for local counting', () => {
    const { result } = run(toBytes(loadChunksFixture(url('gemini-stream.chunks.txt'))), 13);
    expect(result.generated.text).toBe('Hello! How can I "help" you today? 👋');
    expect(result.usage?.outputTokens.total).toBe(12);
    expect(result.finishReason).toBe('stop');
  });

  it('counts a bad JSON event and reports an early close (no finish reason)', () => {
    const text =
      'data: {"candidates": [{"content": {"parts": [{"text": "Hi"}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 4,"totalTokenCount": 4}}\r\n\r\n' +
      'data: {"candidates": [{"content": {"parts": [{"text":\r\n\r\n' +
      'data: {"candidates": [{"content": {"parts": [{"text": " there"}],"role": "model"},"index": 0}]}\r\n\r\n';
    const { output, result } = run(toBytes(text), 11);
    expect(new TextDecoder().decode(output)).toBe(text);
    expect(result).toMatchObject({
      sawDone: false,
      malformedEvents: 1,
      eventCount: 3,
      finishReason: undefined,
    });
    expect(result.generated.text).toBe('Hi there');
    expect(result.usage?.inputTokens.total).toBe(4);
  });

  it('records an in-stream error and appends the endOfStream trailer', () => {
    const text =
      'data: {"error": {"code": 429,"message": "Resource has been exhausted","status": "RESOURCE_EXHAUSTED"}}\n\n';
    const { output, result } = run(toBytes(text), 5, { endOfStream: () => 'data: end\n\n' });
    expect(new TextDecoder().decode(output)).toBe(`${text}data: end\n\n`);
    expect(result.error?.code).toBe('upstream:stream_error');
    expect(result.error?.message).toBe('Resource has been exhausted');
    expect(result.sawDone).toBe(false);
  });

  it('works as a TransformStream', async () => {
    const bytes = toBytes(crlf('gemini-stream.chunks.txt'));
    const tap = geminiAdapter.createPassthroughTap();
    const response = new Response(new Blob([bytes]).stream().pipeThrough(tap.stream()));
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
    expect(tap.result().usage?.inputTokens.total).toBe(6);
    expect(() => tap.stream()).toThrow(/only be called once/);
  });
});
