import { describe, expect, it } from 'vitest';
import { openAIAdapter } from '../../providers/openai/openai-adapter.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { StreamPart } from '../../spec/stream-part.js';
import { UpstreamError } from '../../spec/upstream-error.js';
import { createUsage } from '../../spec/usage.js';
import { createSseParserStream, parseSseText } from '../../sse/sse-parser.js';
import { collectText, loadChunksFixture, splitEvery, streamOf, toBytes } from '../../testing/sse-fixtures.js';
import { openAIResponsesCodec, parseOpenAIResponsesRequest } from './openai-responses-codec.js';

const providerFixture = (name: string) =>
  new URL(`../../providers/openai/__fixtures__/${name}`, import.meta.url);

interface Event {
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: stream events are read loosely, field by field.
  data: Record<string, any>;
}

function call(json: Record<string, unknown> = {}): RelayCall {
  return parseOpenAIResponsesRequest({ json: { model: 'gpt-4o', input: 'hi', stream: true, ...json } });
}

/** Upstream chat fixture → adapter parts → Responses events. */
async function convert(name: string, options = {}): Promise<Event[]> {
  const responsesCall = call();
  const chatCall = openAIResponsesCodec.toChatCall!(responsesCall);
  const text = await collectText(
    streamOf(splitEvery(toBytes(loadChunksFixture(providerFixture(name))), 41))
      .pipeThrough(createSseParserStream())
      .pipeThrough(openAIAdapter.toStreamParts(chatCall))
      .pipeThrough(openAIResponsesCodec.toClientStream(responsesCall, options)),
  );
  return events(text);
}

function events(text: string): Event[] {
  return parseSseText(text).map((event) => ({ event: event.event ?? '', data: JSON.parse(event.data) }));
}

function expectWellFormed(list: Event[]): void {
  list.forEach((item, index) => {
    expect(item.data.type).toBe(item.event);
    expect(item.data.sequence_number).toBe(index);
  });
}

describe('Responses stream writer (chat upstream → Responses client)', () => {
  it('writes a text stream with usage', async () => {
    const list = await convert('openai-chat-stream.chunks.txt');
    expectWellFormed(list);
    const types = list.map((item) => item.event);
    expect(types.slice(0, 4)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
    ]);
    expect(types.slice(-4)).toEqual([
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const deltas = list.filter((item) => item.event === 'response.output_text.delta');
    const text = deltas.map((item) => item.data.delta).join('');
    expect(list.find((item) => item.event === 'response.output_text.done')?.data.text).toBe(text);
    const created = list[0]!.data.response;
    expect(created).toMatchObject({ object: 'response', status: 'in_progress', usage: null, output: [] });
    const completed = list.at(-1)!.data.response;
    expect(completed.id).toBe(created.id);
    expect(completed.status).toBe('completed');
    expect(completed.output[0]).toMatchObject({ type: 'message', status: 'completed', role: 'assistant' });
    expect(completed.output[0].content[0].text).toBe(text);
    expect(completed.usage.total_tokens).toBe(completed.usage.input_tokens + completed.usage.output_tokens);
  });

  it('writes streamed function calls as function_call items', async () => {
    const list = await convert('openai-chat-tool-calls-stream.chunks.txt');
    expectWellFormed(list);
    const added = list.filter((item) => item.event === 'response.output_item.added');
    expect(added.map((item) => item.data.item.name)).toEqual(['get_weather', 'get_time']);
    expect(added.map((item) => item.data.item.call_id)).toEqual(['call_8Yq2', 'call_Zr7m']);
    const done = list.filter((item) => item.event === 'response.function_call_arguments.done');
    expect(done.map((item) => item.data.arguments)).toEqual([
      '{"location": "Paris"}',
      '{"tz": "Europe/Paris"}',
    ]);
    const completed = list.at(-1)!;
    expect(completed.event).toBe('response.completed');
    expect(completed.data.response.output.map((item: { type: string }) => item.type)).toEqual([
      'function_call',
      'function_call',
    ]);
    expect(completed.data.response.usage).toEqual({
      input_tokens: 88,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 41,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 129,
    });
  });

  it('writes reasoning as a reasoning summary before the message, with reasoning tokens', async () => {
    const list = await convert('deepseek-reasoner-stream.chunks.txt');
    expectWellFormed(list);
    const types = list.map((item) => item.event);
    expect(types).toContain('response.reasoning_summary_text.delta');
    expect(types.indexOf('response.reasoning_summary_text.done')).toBeLessThan(
      types.indexOf('response.output_text.delta'),
    );
    const completed = list.at(-1)!.data.response;
    expect(completed.output[0].type).toBe('reasoning');
    expect(completed.output[0].summary[0].text).toBe('The user asks 1+1. That is 2.');
    expect(completed.output[1].content[0].text).toBe('2');
    expect(completed.usage.output_tokens_details.reasoning_tokens).toBe(25);
  });

  it('fills usage through resolveUsage (cached tokens) and reports incomplete on length', async () => {
    const parts: StreamPart[] = [
      { type: 'message-start', id: 'x', model: 'gpt-4o-mini' },
      { type: 'text-delta', index: 0, delta: 'Hel' },
      { type: 'text-delta', index: 1, delta: 'ignored second choice' },
      { type: 'finish', index: 0, reason: 'length' },
    ];
    const text = await collectText(
      streamOf(parts).pipeThrough(
        openAIResponsesCodec.toClientStream(call(), {
          resolveUsage: () => createUsage({ inputTotal: 10, cacheRead: 4, outputTotal: 3 }),
        }),
      ),
    );
    const list = events(text);
    expectWellFormed(list);
    const last = list.at(-1)!;
    expect(last.event).toBe('response.incomplete');
    expect(last.data.response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(last.data.response.model).toBe('gpt-4o-mini');
    expect(last.data.response.usage.input_tokens_details.cached_tokens).toBe(4);
    expect(last.data.response.output[0].content[0].text).toBe('Hel');
  });

  it('ends with an error event on an error part', async () => {
    const error = new UpstreamError({
      status: 200,
      code: 'upstream:stream_error',
      message: 'overloaded',
      upstreamCode: 'server_error',
      retryable: false,
      channelFault: false,
    });
    const text = await collectText(
      streamOf<StreamPart>([
        { type: 'text-delta', index: 0, delta: 'a' },
        { type: 'error', error },
        { type: 'text-delta', index: 0, delta: 'b' },
      ]).pipeThrough(openAIResponsesCodec.toClientStream(call())),
    );
    const list = events(text);
    expectWellFormed(list);
    expect(list.at(-1)).toEqual({
      event: 'error',
      data: {
        type: 'error',
        code: 'server_error',
        message: 'overloaded',
        param: null,
        sequence_number: list.length - 1,
      },
    });
    expect(list.some((item) => item.event === 'response.completed')).toBe(false);
  });
});
