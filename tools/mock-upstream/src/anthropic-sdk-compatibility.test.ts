import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { useMockUpstream } from './testing-helpers.ts';

const mock = useMockUpstream();

/** The official SDK pointed at the mock (optionally through a `/__mock/<spec>` prefix). */
const client = (spec?: string, apiKey = 'sk-ant-test') =>
  new Anthropic({ apiKey, baseURL: `${mock.current.url}${spec ? `/__mock/${spec}` : ''}`, maxRetries: 0 });

const request = {
  model: 'claude-mock',
  max_tokens: 256,
  messages: [{ role: 'user' as const, content: 'Hello Claude SDK' }],
};

describe('the official @anthropic-ai/sdk against the mock', () => {
  it('creates a message', async () => {
    const message = await client().messages.create(request);
    expect(message.content).toEqual([
      { type: 'text', text: 'Hello from mock claude-mock: Hello Claude SDK' },
    ]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toMatchObject({ input_tokens: 6, output_tokens: 7, cache_read_input_tokens: 0 });
  });

  it('streams raw events with stream: true', async () => {
    const stream = await client().messages.create({ ...request, stream: true });
    const types: string[] = [];
    let text = '';
    let outputTokens = 0;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
      if (event.type === 'message_delta') outputTokens = event.usage.output_tokens;
    }
    expect(types[0]).toBe('message_start');
    expect(types.at(-1)).toBe('message_stop');
    expect(text).toBe('Hello from mock claude-mock: Hello Claude SDK');
    expect(outputTokens).toBe(7);
  });

  it('accumulates a streamed message, with thinking and cache usage, through messages.stream()', async () => {
    const stream = client().messages.stream({
      ...request,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user', content: '[[mock:cached-4]] Hello Claude SDK' }],
    });
    const final = await stream.finalMessage();
    expect(final.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(await stream.finalText()).toBe('Hello from mock claude-mock: Hello Claude SDK');
    expect(final.usage).toMatchObject({
      input_tokens: 7 - 4,
      cache_read_input_tokens: 4,
      output_tokens: 7 + 8,
    });
  });

  it('parses streamed tool input', async () => {
    const stream = client().messages.stream({
      ...request,
      tools: [
        {
          name: 'lookup',
          input_schema: {
            type: 'object',
            properties: { query: { type: 'string' }, limit: { type: 'integer' } },
          },
        },
      ],
    });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content[0]).toMatchObject({
      type: 'tool_use',
      name: 'lookup',
      input: { query: 'mock', limit: 1 },
    });
  });

  it('surfaces errors as the SDK error classes, in the stream too', async () => {
    await expect(client(undefined, 'sk-invalid').messages.create(request)).rejects.toBeInstanceOf(
      Anthropic.AuthenticationError,
    );
    await expect(client('error-429').messages.create(request)).rejects.toBeInstanceOf(
      Anthropic.RateLimitError,
    );
    await expect(
      client('error-event-after-1').messages.stream(request).finalMessage(),
    ).rejects.toBeInstanceOf(Anthropic.APIError);
  });

  it('lists models and counts tokens', async () => {
    const page = await client().models.list();
    expect(page.data.map((model) => model.id)).toContain('claude-sonnet-4-5');
    const count = await client().messages.countTokens({ model: request.model, messages: request.messages });
    expect(count.input_tokens).toBe(6);
  });
});
