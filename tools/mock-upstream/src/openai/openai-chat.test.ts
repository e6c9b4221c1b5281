import { describe, expect, it } from 'vitest';
import { parseServerSentEvents, parseServerSentJson } from '../server-sent-events.ts';
import { postJson, useMockUpstream } from '../testing-helpers.ts';

const mock = useMockUpstream();

interface ChatChunk {
  choices: { index: number; delta: Record<string, unknown>; finish_reason: string | null }[];
  usage?: Record<string, unknown> | null;
}

describe('POST /v1/chat/completions', () => {
  it('answers a JSON completion with deterministic text and usage', async () => {
    const response = await postJson(mock.current, '/v1/chat/completions', {
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'What is the capital of France?' }] },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = await response.json();
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-4o',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hello from mock gpt-4o: What is the capital of France?' },
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: 2 + 3 + 6 + 3,
        completion_tokens: 10,
        total_tokens: 24,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
    expect(body.id).toMatch(/^chatcmpl-/);
  });

  it('streams chunks without usage unless include_usage is set', async () => {
    const response = await postJson(mock.current, '/v1/chat/completions', {
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const text = await response.text();
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    const chunks = parseServerSentJson(text) as ChatChunk[];
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '', refusal: null });
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(
      'Hello from mock gpt-4o: hi',
    );
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.every((chunk) => !('usage' in chunk))).toBe(true);
  });

  it('sends the usage chunk with empty choices only with stream_options.include_usage', async () => {
    const response = await postJson(mock.current, '/v1/chat/completions', {
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hi [[mock:cached-2]]' }],
    });
    const chunks = parseServerSentJson(await response.text()) as ChatChunk[];
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toMatchObject({
      prompt_tokens: 5,
      completion_tokens: 5,
      total_tokens: 10,
      prompt_tokens_details: { cached_tokens: 2 },
    });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });

  it('returns n choices and bills every one', async () => {
    const body = await (
      await postJson(mock.current, '/v1/chat/completions', {
        model: 'gpt-4o',
        n: 3,
        messages: [{ role: 'user', content: 'hi' }],
      })
    ).json();
    expect(body.choices.map((choice: { index: number }) => choice.index)).toEqual([0, 1, 2]);
    expect(body.usage.completion_tokens).toBe(15);
  });

  it('calls the first tool with JSON arguments, streamed as fragments', async () => {
    const request = {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'weather in Paris?' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            parameters: {
              type: 'object',
              properties: { city: { type: 'string' }, days: { type: 'integer' } },
            },
          },
        },
        { type: 'function', function: { name: 'other', parameters: {} } },
      ],
    };
    const json = await (await postJson(mock.current, '/v1/chat/completions', request)).json();
    expect(json.choices[0].finish_reason).toBe('tool_calls');
    expect(json.choices[0].message.content).toBeNull();
    expect(json.choices[0].message.tool_calls).toEqual([
      {
        id: expect.stringMatching(/^call_/),
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"mock","days":1}' },
      },
    ]);
    const stream = await (
      await postJson(mock.current, '/v1/chat/completions', { ...request, stream: true })
    ).text();
    const chunks = parseServerSentJson(stream) as ChatChunk[];
    const calls = chunks.flatMap(
      (chunk) => (chunk.choices[0]?.delta.tool_calls as { function: { arguments: string } }[]) ?? [],
    );
    expect(calls.length).toBeGreaterThan(2);
    expect(calls.map((call) => call.function.arguments).join('')).toBe('{"city":"mock","days":1}');
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('answers with text once the conversation ends with a tool result, and honours tool_choice none', async () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: {} } }];
    const afterTool = await (
      await postJson(mock.current, '/v1/chat/completions', {
        model: 'gpt-4o',
        tools,
        messages: [
          { role: 'user', content: 'weather?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
        ],
      })
    ).json();
    expect(afterTool.choices[0].message.content).toBe('Hello from mock gpt-4o: weather?');
    const none = await (
      await postJson(mock.current, '/v1/chat/completions', {
        model: 'gpt-4o',
        tools,
        tool_choice: 'none',
        messages: [{ role: 'user', content: 'weather?' }],
      })
    ).json();
    expect(none.choices[0].finish_reason).toBe('stop');
  });

  it('streams reasoning_content before content for reasoner and thinking models', async () => {
    const text = await (
      await postJson(mock.current, '/v1/chat/completions', {
        model: 'deepseek-reasoner',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'hi' }],
      })
    ).text();
    const chunks = parseServerSentJson(text) as ChatChunk[];
    const reasoning = chunks.map((chunk) => chunk.choices[0]?.delta.reasoning_content ?? '').join('');
    expect(reasoning).toBe('Mock reasoning: the user wants a deterministic answer.');
    const firstContent = chunks.findIndex(
      (chunk) =>
        typeof chunk.choices[0]?.delta.content === 'string' && chunk.choices[0]?.delta.content !== '',
    );
    const lastReasoning = chunks.findLastIndex(
      (chunk) => chunk.choices[0]?.delta.reasoning_content !== undefined,
    );
    expect(lastReasoning).toBeLessThan(firstContent);
    expect(chunks.at(-1)?.usage).toMatchObject({
      completion_tokens: 5 + 8,
      completion_tokens_details: { reasoning_tokens: 8 },
    });
    const json = await (
      await postJson(mock.current, '/v1/chat/completions', {
        model: 'qwen-thinking',
        messages: [{ role: 'user', content: 'hi' }],
      })
    ).json();
    expect(json.choices[0].message.reasoning_content).toBe(
      'Mock reasoning: the user wants a deterministic answer.',
    );
  });

  it('stops at max_tokens with finish_reason length', async () => {
    const json = await (
      await postJson(mock.current, '/v1/chat/completions', {
        model: 'gpt-4o',
        max_tokens: 2,
        messages: [{ role: 'user', content: 'hi' }],
      })
    ).json();
    expect(json.choices[0]).toMatchObject({ message: { content: 'Hello from' }, finish_reason: 'length' });
    expect(json.usage.completion_tokens).toBe(2);
  });

  it('rejects a request without model or messages with OpenAI 400 errors', async () => {
    const noModel = await postJson(mock.current, '/v1/chat/completions', { messages: [] });
    expect(noModel.status).toBe(400);
    expect(await noModel.json()).toEqual({
      error: {
        message: 'you must provide a model parameter',
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
    const noMessages = await postJson(mock.current, '/v1/chat/completions', { model: 'gpt-4o' });
    expect((await noMessages.json()).error.param).toBe('messages');
  });

  it('uses SSE framing that a plain parser reads', async () => {
    const text = await (
      await postJson(mock.current, '/v1/chat/completions', {
        model: 'm',
        stream: true,
        messages: [{ role: 'user', content: 'a' }],
      })
    ).text();
    const events = parseServerSentEvents(text);
    expect(events.at(-1)?.data).toBe('[DONE]');
    expect(events.every((event) => event.event === undefined)).toBe(true);
  });
});
