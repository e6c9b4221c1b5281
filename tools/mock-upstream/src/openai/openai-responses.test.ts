import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { parseServerSentEvents } from '../server-sent-events.ts';
import { postJson, useMockUpstream } from '../testing-helpers.ts';

const mock = useMockUpstream();
const client = (spec?: string) =>
  new OpenAI({
    apiKey: 'sk-test',
    baseURL: `${mock.current.url}${spec ? `/__mock/${spec}` : ''}/v1`,
    maxRetries: 0,
  });
const weather = {
  type: 'function' as const,
  name: 'get_weather',
  strict: false,
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};

describe('POST /v1/responses', () => {
  it('answers a response object the SDK reads, with usage and cached tokens', async () => {
    const response = await client('cached-2').responses.create({
      model: 'gpt-4o',
      instructions: 'be brief',
      input: 'hello responses',
    });
    expect(response.object).toBe('response');
    expect(response.status).toBe('completed');
    expect(response.output_text).toBe('Hello from mock gpt-4o: hello responses');
    // instructions 2 + 3, input 2 + 3; output 6 words.
    expect(response.usage).toMatchObject({
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 2 },
      output_tokens: 6,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 16,
    });
  });

  it('streams response.created … response.completed with usage, one delta per word', async () => {
    const stream = await client().responses.create({ model: 'gpt-4o', input: 'stream me', stream: true });
    const types: string[] = [];
    let text = '';
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(types.filter((type) => type === 'response.output_text.delta')).toHaveLength(6);
    expect(text).toBe('Hello from mock gpt-4o: stream me');
    expect(completed?.usage).toMatchObject({ input_tokens: 5, output_tokens: 6 });
    expect(completed?.output_text ?? completed?.output[0]).toBeTruthy();
  });

  it('calls the first function tool, in JSON and streamed as argument deltas', async () => {
    const response = await client().responses.create({
      model: 'gpt-4o',
      input: 'weather?',
      tools: [weather],
    });
    const call = response.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({ name: 'get_weather', arguments: '{"city":"mock"}' });
    const stream = await client().responses.create({
      model: 'gpt-4o',
      input: 'weather?',
      tools: [weather],
      stream: true,
    });
    let args = '';
    for await (const event of stream) {
      if (event.type === 'response.function_call_arguments.delta') args += event.delta;
    }
    expect(args).toBe('{"city":"mock"}');
    const answered = await client().responses.create({
      model: 'gpt-4o',
      tools: [weather],
      input: [
        { role: 'user', content: 'weather?' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"mock"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      ],
    });
    expect(answered.output_text).toBe('Hello from mock gpt-4o: weather?');
  });

  it('calls a function grouped in a namespace tool, skipping built-in tools', async () => {
    const response = await postJson(mock.current, '/v1/responses', {
      model: 'gpt-4o',
      input: 'weather?',
      tools: [{ type: 'web_search' }, { type: 'namespace', name: 'mcp', tools: [weather] }],
    });
    const body = (await response.json()) as { output: Array<Record<string, unknown>> };
    expect(body.output.find((item) => item.type === 'function_call')).toMatchObject({
      name: 'get_weather',
      arguments: '{"city":"mock"}',
    });
  });

  it('reasons for thinking models and stops at max_output_tokens', async () => {
    const response = await client().responses.create({
      model: 'o3-thinking',
      input: 'one two three four five six',
      max_output_tokens: 3,
    });
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.output[0]?.type).toBe('reasoning');
    expect(response.usage).toMatchObject({
      output_tokens: 11,
      output_tokens_details: { reasoning_tokens: 8 },
    });
  });

  it('applies no-usage, disconnect-after-n, error-<status> and bad-json-event', async () => {
    const noUsage = await (
      await postJson(mock.current, '/__mock/no-usage/v1/responses', { model: 'm', input: 'x', stream: true })
    ).text();
    const last = parseServerSentEvents(noUsage).at(-1)!;
    expect(last.event).toBe('response.completed');
    expect(JSON.parse(last.data).response.usage).toBeUndefined();

    const cut = await (
      await postJson(mock.current, '/__mock/disconnect-after-2/v1/responses', {
        model: 'm',
        input: 'x',
        stream: true,
      }).catch((error: unknown) => ({ text: async () => String(error) }))
    )
      .text()
      .catch((error: unknown) => String(error));
    expect(cut).not.toContain('response.completed');

    await expect(client('error-429').responses.create({ model: 'm', input: 'x' })).rejects.toMatchObject({
      status: 429,
    });
    const broken = await (
      await postJson(mock.current, '/__mock/bad-json-event/v1/responses', {
        model: 'm',
        input: 'x',
        stream: true,
      })
    ).text();
    const events = parseServerSentEvents(broken);
    expect(events.filter((event) => !event.data.endsWith('}'))).toHaveLength(1);
    expect(events.at(-1)?.event).toBe('response.completed');

    const errorEvent = await (
      await postJson(mock.current, '/__mock/error-event-after-1/v1/responses', {
        model: 'm',
        input: 'x',
        stream: true,
      })
    ).text();
    expect(parseServerSentEvents(errorEvent).at(-1)?.event).toBe('error');
  });

  it('rejects a request without input', async () => {
    const reply = await postJson(mock.current, '/v1/responses', { model: 'm' });
    expect(reply.status).toBe(400);
    expect((await reply.json()).error.param).toBe('input');
  });
});
