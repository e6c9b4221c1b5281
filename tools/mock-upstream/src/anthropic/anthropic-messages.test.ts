import { describe, expect, it } from 'vitest';
import { parseServerSentEvents } from '../server-sent-events.ts';
import { anthropicHeaders, postJson, testFetch, useMockUpstream } from '../testing-helpers.ts';

const mock = useMockUpstream();

const request = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  system: 'You are terse.',
  messages: [{ role: 'user', content: 'Hello there Claude' }],
};

describe('POST /v1/messages', () => {
  it('answers a JSON message with Anthropic usage', async () => {
    const response = await postJson(mock.current, '/v1/messages', request, anthropicHeaders);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: expect.stringMatching(/^msg_/),
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'Hello from mock claude-sonnet-4-5: Hello there Claude' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: 3 + 3 + 3 + 3,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
        output_tokens: 7,
        service_tier: 'standard',
      },
    });
  });

  it('streams the exact Anthropic event sequence', async () => {
    const response = await postJson(
      mock.current,
      '/v1/messages',
      { ...request, stream: true },
      anthropicHeaders,
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const events = parseServerSentEvents(await response.text());
    const names = events.map((event) => event.event);
    expect(names.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(names.slice(-4)).toEqual([
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const event of events) expect(JSON.parse(event.data).type).toBe(event.event);
    const start = JSON.parse(events[0]!.data);
    expect(start.message.usage).toMatchObject({
      input_tokens: 12,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
    const text = events
      .filter((event) => event.event === 'content_block_delta')
      .map((event) => JSON.parse(event.data).delta.text)
      .join('');
    expect(text).toBe('Hello from mock claude-sonnet-4-5: Hello there Claude');
    expect(JSON.parse(events.at(-2)!.data)).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 7 },
    });
  });

  it('splits cache reads and writes out of input_tokens', async () => {
    const json = await (
      await postJson(
        mock.current,
        '/v1/messages',
        { ...request, messages: [{ role: 'user', content: '[[mock:cached-5,cache-write-2]] hi' }] },
        anthropicHeaders,
      )
    ).json();
    expect(json.usage).toMatchObject({
      input_tokens: 6 + 5 - 7,
      cache_read_input_tokens: 5,
      cache_creation_input_tokens: 2,
    });
  });

  it('streams thinking_delta and signature_delta for thinking requests', async () => {
    const events = parseServerSentEvents(
      await (
        await postJson(
          mock.current,
          '/v1/messages',
          { ...request, stream: true, thinking: { type: 'enabled', budget_tokens: 1024 } },
          anthropicHeaders,
        )
      ).text(),
    );
    const deltas = events
      .filter((event) => event.event === 'content_block_delta')
      .map((event) => JSON.parse(event.data));
    expect(deltas[0]).toMatchObject({ index: 0, delta: { type: 'thinking_delta' } });
    expect(deltas.find((delta) => delta.delta.type === 'signature_delta')).toBeDefined();
    expect(deltas.at(-1)).toMatchObject({ index: 1, delta: { type: 'text_delta' } });
    const blockTypes = events
      .filter((event) => event.event === 'content_block_start')
      .map((event) => JSON.parse(event.data).content_block.type);
    expect(blockTypes).toEqual(['thinking', 'text']);
  });

  it('calls the first tool, streaming input_json_delta fragments', async () => {
    const toolRequest = {
      ...request,
      tools: [
        { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
      ],
    };
    const json = await (await postJson(mock.current, '/v1/messages', toolRequest, anthropicHeaders)).json();
    expect(json.stop_reason).toBe('tool_use');
    expect(json.content).toEqual([
      {
        type: 'tool_use',
        id: expect.stringMatching(/^toolu_/),
        name: 'get_weather',
        input: { city: 'mock' },
      },
    ]);
    const events = parseServerSentEvents(
      await (
        await postJson(mock.current, '/v1/messages', { ...toolRequest, stream: true }, anthropicHeaders)
      ).text(),
    );
    const partial = events
      .filter((event) => event.event === 'content_block_delta')
      .map((event) => JSON.parse(event.data).delta.partial_json)
      .join('');
    expect(JSON.parse(partial)).toEqual({ city: 'mock' });
  });

  it('never calls a deferred tool, which a real model only sees after a tool search', async () => {
    const toolRequest = {
      ...request,
      tools: [
        { name: 'DeferredToolPlaceholder', defer_loading: true, input_schema: { type: 'object' } },
        { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
      ],
    };
    const json = await (await postJson(mock.current, '/v1/messages', toolRequest, anthropicHeaders)).json();
    expect(json.content[0]).toMatchObject({ type: 'tool_use', name: 'get_weather' });
  });

  it('answers with text after a tool_result', async () => {
    const json = await (
      await postJson(
        mock.current,
        '/v1/messages',
        {
          ...request,
          tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
          messages: [
            { role: 'user', content: 'weather?' },
            { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'get_weather', input: {} }] },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'sunny' }] },
          ],
        },
        anthropicHeaders,
      )
    ).json();
    expect(json.content[0]).toEqual({ type: 'text', text: 'Hello from mock claude-sonnet-4-5: weather?' });
  });

  it('requires max_tokens, an API key and the anthropic-version header, with Anthropic errors', async () => {
    const { max_tokens: _, ...withoutMax } = request;
    const missingMax = await postJson(mock.current, '/v1/messages', withoutMax, anthropicHeaders);
    expect(missingMax.status).toBe(400);
    expect(await missingMax.json()).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'max_tokens: Field required' },
    });
    const noVersion = await postJson(mock.current, '/v1/messages', request, { 'x-api-key': 'k' });
    expect(noVersion.status).toBe(400);
    const invalid = await postJson(mock.current, '/v1/messages', request, {
      ...anthropicHeaders,
      'x-api-key': 'sk-invalid',
    });
    expect(invalid.status).toBe(401);
    expect((await invalid.json()).error.type).toBe('authentication_error');
  });

  it('counts tokens and lists models in Anthropic shape', async () => {
    const count = await (
      await postJson(mock.current, '/v1/messages/count_tokens', request, anthropicHeaders)
    ).json();
    expect(count).toEqual({ input_tokens: 12 });
    const models = await (
      await testFetch(`${mock.current.url}/v1/models`, { headers: anthropicHeaders })
    ).json();
    expect(models.data[0]).toMatchObject({ type: 'model', id: 'claude-sonnet-4-5' });
    expect(models.has_more).toBe(false);
  });
});
