import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseOpenAIResponsesRequest } from '../../protocols/openai-responses/openai-responses-codec.js';
import { isNativeProtocol } from '../../spec/provider-adapter.js';
import { collectStream, splitAt, splitEvery, streamOf, toBytes } from '../../testing/sse-fixtures.js';
import { concatBytes } from '../../util/bytes.js';
import { openAIAdapter } from './openai-adapter.js';

const url = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);
const streamText = readFileSync(url('openai-responses-stream.sse.txt'), 'utf8');
const bodyText = readFileSync(url('openai-responses.json'), 'utf8');

function tapAll(chunks: Uint8Array[], options = {}) {
  const tap = openAIAdapter.createPassthroughTap({ protocol: 'openai-responses', now: () => 7, ...options });
  const out: Uint8Array[] = [];
  for (const chunk of chunks) out.push(tap.push(chunk));
  out.push(tap.finish());
  return { tap, out: concatBytes(out) };
}

describe('OpenAI Responses native pass-through', () => {
  it('is native at /v1/responses and forwards the client bytes unchanged', () => {
    expect(isNativeProtocol(openAIAdapter, 'openai-responses')).toBe(true);
    const raw = toBytes('{"model":"gpt-4.1","input":"hi","stream":true,"previous_response_id":"resp_0"}');
    const call = parseOpenAIResponsesRequest({ rawBody: raw, path: '/v1/responses' });
    const request = openAIAdapter.buildRequest(call, { type: 1, key: 'sk-x' });
    expect(request.url).toBe('https://api.openai.com/v1/responses');
    expect(request.body).toBe(raw);
    expect(request.streamUsageForced).toBe(false);
  });

  it('taps a Responses stream without changing a byte, split anywhere', () => {
    const bytes = toBytes(streamText);
    for (const size of [1, 7, 64, bytes.length]) {
      const chunks = splitEvery(bytes, size);
      const { tap, out } = tapAll(chunks);
      expect(new TextDecoder().decode(out)).toBe(streamText);
      const result = tap.result();
      expect(result).toMatchObject({
        sawDone: true,
        finishReason: 'stop',
        rawFinishReason: 'completed',
        responseId: 'resp_68a1b2c3',
        model: 'gpt-4.1-2025-04-14',
        firstEventAt: 7,
        eventCount: 10,
        malformedEvents: 0,
        error: undefined,
      });
      expect(result.usage?.inputTokens).toMatchObject({ total: 120, cacheRead: 64, uncached: 56 });
      expect(result.usage?.outputTokens).toMatchObject({ total: 40, reasoning: 12 });
      expect(result.generated).toEqual({
        text: 'Checking weather.Let me check. Ça vaget_weather{"city":"Paris"}',
        chars: 63,
        toolCallCount: 1,
      });
    }
  });

  it('returns the same chunk objects (zero copy)', () => {
    const chunk = toBytes(streamText);
    const tap = openAIAdapter.createPassthroughTap({ protocol: 'openai-responses' });
    expect(tap.push(chunk)).toBe(chunk);
  });

  it('reports a malformed, cut-short stream', async () => {
    const cut = streamText.indexOf('event: response.completed');
    const broken = `${streamText.slice(0, cut)}event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":\n\n`;
    const bytes = toBytes(broken);
    const out = await collectStream(
      streamOf(splitAt(bytes, [3, 100, 500])).pipeThrough(
        openAIAdapter.createPassthroughTap({ protocol: 'openai-responses' }).stream(),
      ),
    );
    expect(new TextDecoder().decode(concatBytes(out))).toBe(broken);
    const { tap } = tapAll([bytes]);
    const result = tap.result();
    expect(result.sawDone).toBe(false);
    expect(result.usage).toBeUndefined();
    expect(result.malformedEvents).toBe(1);
    expect(result.finishReason).toBeUndefined();
    expect(result.responseId).toBe('resp_68a1b2c3');
  });

  it('reads in-stream errors and failed responses', () => {
    const error = toBytes(
      'event: error\ndata: {"type":"error","code":"server_error","message":"The server had an error","param":null,"sequence_number":3}\n\n',
    );
    const first = tapAll([error]).tap.result();
    expect(first.error).toMatchObject({
      code: 'upstream:stream_error',
      upstreamCode: 'server_error',
      retryable: false,
    });
    expect(first.sawDone).toBe(false);
    const failed = toBytes(
      'data: {"type":"response.failed","response":{"id":"resp_9","status":"failed","error":{"code":"rate_limit_exceeded","message":"slow down"},"usage":null}}',
    );
    const second = tapAll([failed]).tap.result();
    expect(second).toMatchObject({ sawDone: true, finishReason: 'error', rawFinishReason: 'failed' });
    expect(second.error?.message).toBe('slow down');
  });

  it('appends the endOfStream result after the last byte', () => {
    const { out } = tapAll([toBytes(streamText)], {
      endOfStream: (result: { sawDone: boolean }) => `: done=${result.sawDone}\n\n`,
    });
    expect(new TextDecoder().decode(out)).toBe(`${streamText}: done=true\n\n`);
  });

  it('reads usage of Responses bodies, events and texts', () => {
    const fromText = openAIAdapter.readUsage(bodyText, 'openai-responses');
    expect(fromText?.inputTokens).toMatchObject({ total: 2000, cacheRead: 1024, uncached: 976 });
    expect(fromText?.outputTokens).toMatchObject({ total: 300, reasoning: 256 });
    expect(openAIAdapter.readUsage(JSON.parse(bodyText), 'openai-responses')).toEqual(fromText);
    const completed = streamText.split('\n').find((line) => line.includes('"response.completed"'))!;
    const fromEvent = openAIAdapter.readUsage(
      { event: 'response.completed', data: completed.slice(6) },
      'openai-responses',
    );
    expect(fromEvent?.inputTokens.total).toBe(120);
    expect(
      openAIAdapter.readUsage({ data: '{"type":"response.output_text.delta"}' }, 'openai-responses'),
    ).toBeUndefined();
    expect(openAIAdapter.readUsage('not json', 'openai-responses')).toBeUndefined();
    // The default protocol is still chat.
    expect(
      openAIAdapter.readUsage('{"usage":{"prompt_tokens":3,"completion_tokens":2}}')?.inputTokens.total,
    ).toBe(3);
  });
});
