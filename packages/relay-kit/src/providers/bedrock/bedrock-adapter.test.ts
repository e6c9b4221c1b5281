import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAnthropicMessagesRequest } from '../../protocols/anthropic-messages/anthropic-messages-codec.js';
import { parseOpenAIChatRequest } from '../../protocols/openai-chat/openai-chat-codec.js';
import type { StreamPart } from '../../spec/stream-part.js';
import { parseSseText } from '../../sse/sse-parser.js';
import { collectStream, splitEvery, streamOf } from '../../testing/sse-fixtures.js';
import { AwsEventStreamDecoder, createBedrockEventStreamDecoder } from './aws-event-stream.js';
import { createBedrockAdapter, parseBedrockKey } from './bedrock-adapter.js';
import { bedrockModelId } from './bedrock-model-ids.js';
import { crc32 } from './crc32.js';
import { signAwsRequest } from './sigv4.js';

const encoder = new TextEncoder();
const adapter = createBedrockAdapter({ now: () => new Date('2025-03-01T10:00:00Z') });
const channel = { type: 33, key: 'AKIDEXAMPLE|wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY|us-west-2' };

/** Encodes one event-stream frame with string headers (the test's own writer). */
function frame(headers: Record<string, string>, payload: string): Uint8Array {
  const headerBytes: number[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const n = encoder.encode(name);
    const v = encoder.encode(value);
    headerBytes.push(n.length, ...n, 7, v.length >> 8, v.length & 0xff, ...v);
  }
  const body = encoder.encode(payload);
  const total = 12 + headerBytes.length + body.length + 4;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headerBytes.length);
  view.setUint32(8, crc32(out, 0, 8));
  out.set(headerBytes, 12);
  out.set(body, 12 + headerBytes.length);
  view.setUint32(total - 4, crc32(out, 0, total - 4));
  return out;
}
const chunk = (event: string) =>
  frame(
    { ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' },
    JSON.stringify({ bytes: Buffer.from(event).toString('base64'), p: 'abcdefghij' }),
  );
const anthropicEvents = parseSseText(
  readFileSync(
    new URL('../anthropic/__fixtures__/anthropic-stream-thinking-tool.sse', import.meta.url),
    'utf8',
  ),
).map((event) => event.data);
const body = (request: { body?: string | Uint8Array | undefined }) => JSON.parse(String(request.body));

describe('bedrock event-stream decoding', () => {
  it('decodes chunk frames split anywhere into Anthropic events and parts', async () => {
    const bytes = Buffer.concat(anthropicEvents.map(chunk));
    const call = parseAnthropicMessagesRequest({
      json: {
        model: 'claude-3-7-sonnet-20250219',
        stream: true,
        max_tokens: 10,
        messages: [{ role: 'user', content: 'x' }],
      },
    });
    for (const size of [1, 5, 333, bytes.length]) {
      const events = await collectStream(
        streamOf(splitEvery(bytes, size)).pipeThrough(createBedrockEventStreamDecoder()),
      );
      expect(events.map((event) => event.data)).toEqual(anthropicEvents);
      expect(events[0]?.event).toBe('message_start');
    }
    const parts: StreamPart[] = await collectStream(
      streamOf([bytes]).pipeThrough(adapter.decodeStream!()).pipeThrough(adapter.toStreamParts(call)),
    );
    expect(parts.filter((part) => part.type === 'tool-call-delta')).toHaveLength(5);
    expect(parts.find((part) => part.type === 'finish')).toMatchObject({ reason: 'tool-calls' });
  });

  it('rejects corrupt frames and reports exceptions as Anthropic errors', async () => {
    const good = chunk(anthropicEvents[0]!);
    const corrupt = good.slice();
    corrupt[corrupt.length - 10]! ^= 1;
    expect(() => new AwsEventStreamDecoder().push(corrupt)).toThrow(/message checksum mismatch/);
    const badPrelude = good.slice();
    badPrelude[2]! ^= 1;
    expect(() => new AwsEventStreamDecoder().push(badPrelude)).toThrow(/prelude checksum/);
    const decode = async (...chunks: Uint8Array[]) =>
      collectStream(streamOf(chunks).pipeThrough(createBedrockEventStreamDecoder()));
    const failed = await decode(good, corrupt, good);
    expect(failed).toHaveLength(2);
    expect(JSON.parse(failed[1]!.data).error.message).toMatch(/malformed Bedrock event stream/);
    const throttled = await decode(
      good,
      frame(
        {
          ':message-type': 'exception',
          ':exception-type': 'throttlingException',
          ':content-type': 'application/json',
        },
        '{"message":"Too many requests, please wait before trying again."}',
      ),
    );
    expect(JSON.parse(throttled[1]!.data)).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Too many requests, please wait before trying again.' },
    });
    const cut = await decode(good.subarray(0, 20));
    expect(JSON.parse(cut[0]!.data).error.message).toBe('Bedrock event stream ended inside a message');
  });
});

describe('bedrock requests', () => {
  it('builds a signed InvokeModelWithResponseStream request from a Messages call', () => {
    const call = parseAnthropicMessagesRequest({
      json: {
        model: 'claude-3-5-sonnet-20241022',
        stream: true,
        max_tokens: 100,
        messages: [{ role: 'user', content: 'hi' }],
      },
      headers: { 'anthropic-beta': 'token-efficient-tools-2025-02-19' },
    });
    const request = adapter.buildRequest(call, channel);
    expect(request.url).toBe(
      'https://bedrock-runtime.us-west-2.amazonaws.com/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0/invoke-with-response-stream',
    );
    expect(request.upstreamModel).toBe('anthropic.claude-3-5-sonnet-20241022-v2:0');
    expect(body(request)).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
      anthropic_beta: ['token-efficient-tools-2025-02-19'],
    });
    expect(request.headers['x-amz-date']).toBe('20250301T100000Z');
    expect(request.headers.accept).toBe('application/vnd.amazon.eventstream');
    // Re-signing the same request independently gives the same signature.
    const again = signAwsRequest({
      method: 'POST',
      url: request.url,
      headers: { 'content-type': 'application/json', accept: 'application/vnd.amazon.eventstream' },
      body: String(request.body),
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      region: 'us-west-2',
      service: 'bedrock',
      date: new Date('2025-03-01T10:00:00Z'),
    });
    expect(request.headers.authorization).toBe(again.headers.authorization);
    expect(request.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20250301\/us-west-2\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
  });

  it('converts chat completions with the thinking adapter and cross-region ids', () => {
    const call = parseOpenAIChatRequest({
      json: { model: 'claude-3-7-sonnet-20250219-thinking', messages: [{ role: 'user', content: 'hi' }] },
    });
    const request = adapter.buildRequest(call, { ...channel, key: 'AK|SK|eu-central-1' });
    expect(request.url).toBe(
      'https://bedrock-runtime.eu-central-1.amazonaws.com/model/eu.anthropic.claude-3-7-sonnet-20250219-v1%3A0/invoke',
    );
    expect(body(request)).toMatchObject({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 8192,
      thinking: { type: 'enabled', budget_tokens: 6553 },
      temperature: 1,
    });
    expect(body(request)).not.toHaveProperty('model');
    expect(bedrockModelId('claude-3-haiku-20240307', 'ap-northeast-1')).toBe(
      'anthropic.claude-3-haiku-20240307-v1:0',
    );
    expect(bedrockModelId('claude-sonnet-4-20250514', 'ap-northeast-1')).toBe(
      'apac.anthropic.claude-sonnet-4-20250514-v1:0',
    );
    expect(bedrockModelId('us.anthropic.claude-x-v1:0', 'us-east-1')).toBe('us.anthropic.claude-x-v1:0');
  });

  it('rejects malformed keys and classifies AWS errors', () => {
    expect(() => parseBedrockKey('only-one-part')).toThrow(/AccessKeyId\|SecretAccessKey\|region/);
    expect(parseBedrockKey(' AK | SK | us-east-1 ')).toEqual({
      accessKeyId: 'AK',
      secretAccessKey: 'SK',
      region: 'us-east-1',
    });
    const token = adapter.parseError(
      403,
      '{"message":"The security token included in the request is invalid."}',
      {
        'x-amzn-errortype':
          'UnrecognizedClientException:http://internal.amazon.com/coral/com.amazon.coral.service/',
      },
    );
    expect(token).toMatchObject({
      code: 'channel:invalid_key',
      channelFault: true,
      type: 'UnrecognizedClientException',
    });
    expect(
      adapter.parseError(429, '{"message":"Too many requests"}', {
        'x-amzn-errortype': 'ThrottlingException',
      }),
    ).toMatchObject({ code: 'upstream:rate_limited', retryable: true, channelFault: false });
    expect(adapter.parseError(400, '{"message":"The provided model identifier is invalid."}')).toMatchObject({
      code: 'channel:model_not_found',
      channelFault: true,
    });
    expect(
      adapter.parseError(400, '{"message":"messages: text content blocks must be non-empty"}'),
    ).toMatchObject({ code: 'upstream:bad_request', retryable: false });
  });
});
