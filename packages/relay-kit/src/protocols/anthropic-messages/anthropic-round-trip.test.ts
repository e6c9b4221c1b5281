import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { anthropicAdapter } from '../../providers/anthropic/anthropic-adapter.js';
import { openAIAdapter } from '../../providers/openai/openai-adapter.js';
import type { StreamPart } from '../../spec/stream-part.js';
import { createUsage } from '../../spec/usage.js';
import { createSseParserStream } from '../../sse/sse-parser.js';
import { collectText, loadChunksFixture, streamOf, toBytes } from '../../testing/sse-fixtures.js';
import { openAIChatCodec } from '../openai-chat/openai-chat-codec.js';
import { anthropicMessagesCodec } from './anthropic-messages-codec.js';

const openAIFixture = (name: string) =>
  new URL(`../../providers/openai/__fixtures__/${name}`, import.meta.url);
const anthropicFixture = (name: string) =>
  new URL(`../../providers/anthropic/__fixtures__/${name}`, import.meta.url);

const clientCall = anthropicMessagesCodec.parseRequest({
  json: {
    model: 'gpt-4o-mini',
    max_tokens: 300,
    stream: true,
    system: 'You are terse.',
    temperature: 0.3,
    top_k: 4,
    stop_sequences: ['STOP'],
    metadata: { user_id: 'u-1' },
    tools: [
      {
        name: 'get_weather',
        description: 'Weather',
        input_schema: { type: 'object', properties: { location: { type: 'string' } } },
      },
    ],
    tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather in Paris?' },
          { type: 'image', source: { type: 'url', url: 'https://img.example/p.png' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'call the tool', signature: 'sig' },
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { location: 'Paris' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '21°C' }] },
          { type: 'text', text: 'Thanks' },
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4A==' } },
        ],
      },
    ],
  },
});

/** Runs upstream SSE text through an adapter's parts and the Anthropic client writer. */
async function toAnthropicClient(
  sse: string,
  parts: TransformStream<never, StreamPart>,
  resolveUsage?: Parameters<typeof anthropicMessagesCodec.toClientStream>[1],
) {
  return collectText(
    streamOf([toBytes(sse)])
      .pipeThrough(createSseParserStream())
      .pipeThrough(parts as unknown as TransformStream<unknown, StreamPart>)
      .pipeThrough(anthropicMessagesCodec.toClientStream(clientCall, resolveUsage)),
  );
}

/** Parses an Anthropic SSE body with the official SDK's stream accumulator. */
async function sdkFinalMessage(sse: string) {
  const client = new Anthropic({
    apiKey: 'test',
    maxRetries: 0,
    fetch: (async () =>
      new Response(sse, { headers: { 'content-type': 'text/event-stream' } })) as typeof fetch,
  });
  const events: string[] = [];
  const stream = client.messages.stream({
    model: 'x',
    max_tokens: 1,
    messages: [{ role: 'user', content: 'x' }],
  });
  stream.on('streamEvent', (event) => events.push(event.type));
  return { message: await stream.finalMessage(), events };
}

describe('Anthropic client ↔ OpenAI upstream', () => {
  it('converts the request to chat completions (golden)', () => {
    const chat = anthropicMessagesCodec.toChatCall?.(clientCall);
    expect(chat).toMatchObject({
      protocol: 'openai-chat',
      model: 'gpt-4o-mini',
      stream: true,
      includeUsage: true,
      maxTokens: 300,
    });
    expect(chat?.rawBody).toBeUndefined();
    expect(chat?.body).toEqual({
      model: 'gpt-4o-mini',
      max_tokens: 300,
      temperature: 0.3,
      stop: ['STOP'],
      user: 'u-1',
      stream: true,
      stream_options: { include_usage: true },
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather',
            parameters: { type: 'object', properties: { location: { type: 'string' } } },
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      messages: [
        { role: 'system', content: 'You are terse.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather in Paris?' },
            { type: 'image_url', image_url: { url: 'https://img.example/p.png' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            {
              id: 'toolu_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: '21°C' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Thanks' },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4A==' } },
          ],
        },
      ],
    });
    // The converted call is accepted by the OpenAI adapter as is.
    expect(
      JSON.parse(String(openAIAdapter.buildRequest(chat!, { type: 1, key: 'k' }).body)).stream_options,
    ).toEqual({ include_usage: true });
  });

  it('streams an OpenAI text answer as Anthropic events the SDK accepts', async () => {
    const sse = await toAnthropicClient(
      loadChunksFixture(openAIFixture('openai-chat-stream.chunks.txt')),
      openAIAdapter.toStreamParts(clientCall) as never,
    );
    const { message, events } = await sdkFinalMessage(sse);
    expect(events).toEqual([
      'message_start',
      'content_block_start',
      ...Array(events.length - 5).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(message.content).toEqual([{ type: 'text', text: 'Hello! How can I "help" you today?' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.id).toBe('chatcmpl-C3xKq1Yy7Dz2sVh9');
    expect(message.usage.cache_read_input_tokens).toBe(1024);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });

  it('streams reasoning and tool calls as separate blocks', async () => {
    const sse = await toAnthropicClient(
      loadChunksFixture(openAIFixture('openai-chat-tool-calls-stream.chunks.txt')),
      openAIAdapter.toStreamParts(clientCall) as never,
    );
    const { message } = await sdkFinalMessage(sse);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content.filter((block) => block.type === 'tool_use')).toEqual([
      { type: 'tool_use', id: 'call_8Yq2', name: 'get_weather', input: { location: 'Paris' } },
      expect.objectContaining({ type: 'tool_use', id: 'call_Zr7m', name: 'get_time' }),
    ]);
    const reasoning = await toAnthropicClient(
      loadChunksFixture(openAIFixture('deepseek-reasoner-stream.chunks.txt')),
      openAIAdapter.toStreamParts(clientCall) as never,
    );
    const parsed = await sdkFinalMessage(reasoning);
    expect(parsed.message.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(reasoning).toContain('"index":1,"delta":{"type":"text_delta"');
  });

  it('applies resolveUsage and ends with an error event on failure', async () => {
    const sse = await toAnthropicClient(
      loadChunksFixture(openAIFixture('openai-chat-stream-no-usage.chunks.txt')),
      openAIAdapter.toStreamParts(clientCall) as never,
      { resolveUsage: (usage) => usage ?? createUsage({ inputTotal: 9, outputTotal: 4 }) },
    );
    expect(sse).toContain(
      '"usage":{"input_tokens":9,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":4}',
    );
    const failed = await toAnthropicClient(
      'data: {}\n\n',
      new TransformStream<unknown, StreamPart>({
        transform(_event, controller) {
          controller.enqueue({ type: 'text-delta', index: 0, delta: 'Hi' });
          controller.enqueue({
            type: 'error',
            error: anthropicAdapter.parseError(
              529,
              '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
            ),
          });
        },
      }) as never,
    );
    expect(
      failed.endsWith(
        'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
      ),
    ).toBe(true);
    expect(failed).not.toContain('message_stop');
    await expect(sdkFinalMessage(failed)).rejects.toThrow(/Overloaded/);
  });
});

describe('OpenAI client ↔ Anthropic upstream', () => {
  it('streams Anthropic thinking and tool use as chat chunks', async () => {
    const { readFileSync } = await import('node:fs');
    const chatCall = openAIChatCodec.parseRequest({
      json: {
        model: 'claude-3-7-sonnet',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'hi' }],
      },
    });
    const text = await collectText(
      streamOf([toBytes(readFileSync(anthropicFixture('anthropic-stream-thinking-tool.sse'), 'utf8'))])
        .pipeThrough(createSseParserStream())
        .pipeThrough(anthropicAdapter.toStreamParts(chatCall))
        .pipeThrough(openAIChatCodec.toClientStream(chatCall)),
    );
    const chunks = text
      .split('\n\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)));
    expect(chunks[0].id).toBe('msg_014p7gG3wDgGV9EUtLvnow3U');
    expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe(
      'tool_calls',
    );
    expect(chunks.at(-1).usage).toMatchObject({
      prompt_tokens: 2472,
      completion_tokens: 89,
      prompt_tokens_details: { cached_tokens: 2000 },
    });
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  });
});
