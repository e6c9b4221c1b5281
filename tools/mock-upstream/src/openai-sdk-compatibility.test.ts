import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useMockUpstream } from './testing-helpers.ts';

const mock = useMockUpstream();

/** The official SDK pointed at the mock (optionally through a `/__mock/<spec>` prefix). */
const client = (spec?: string, apiKey = 'sk-test') =>
  new OpenAI({ apiKey, baseURL: `${mock.current.url}${spec ? `/__mock/${spec}` : ''}/v1`, maxRetries: 0 });

const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Hello SDK' }];
const weatherTool: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

describe('the official openai SDK against the mock', () => {
  it('creates a chat completion', async () => {
    const completion = await client().chat.completions.create({ model: 'gpt-4o', messages });
    expect(completion.choices[0]?.message.content).toBe('Hello from mock gpt-4o: Hello SDK');
    expect(completion.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 });
  });

  it('streams a chat completion with include_usage', async () => {
    const stream = await client().chat.completions.create({
      model: 'gpt-4o',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    let finishReason: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Hello from mock gpt-4o: Hello SDK');
    expect(finishReason).toBe('stop');
    expect(usage).toMatchObject({
      prompt_tokens: 5,
      completion_tokens: 6,
      prompt_tokens_details: { cached_tokens: 0 },
    });
  });

  it('accumulates streamed tool-call fragments with the stream helper', async () => {
    const runner = client().chat.completions.stream({ model: 'gpt-4o', messages, tools: [weatherTool] });
    const completion = await runner.finalChatCompletion();
    const call = completion.choices[0]?.message.tool_calls?.[0];
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call?.type === 'function' && call.function).toMatchObject({
      name: 'get_weather',
      arguments: '{"city":"mock"}',
    });
  });

  it('surfaces error statuses as the SDK error classes', async () => {
    await expect(
      client(undefined, 'sk-invalid').chat.completions.create({ model: 'gpt-4o', messages }),
    ).rejects.toMatchObject({
      status: 401,
      code: 'invalid_api_key',
    });
    await expect(
      client('error-429').chat.completions.create({ model: 'gpt-4o', messages }),
    ).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    await expect(
      client('error-500').chat.completions.create({ model: 'gpt-4o', messages }),
    ).rejects.toBeInstanceOf(OpenAI.InternalServerError);
  });

  it('throws on an error event in the middle of a stream', async () => {
    const stream = await client('error-event-after-2').chat.completions.create({
      model: 'gpt-4o',
      messages,
      stream: true,
    });
    const consume = async () => {
      for await (const _chunk of stream) {
        // drain
      }
    };
    await expect(consume()).rejects.toBeInstanceOf(OpenAI.APIError);
  });

  it('decodes base64 embeddings (the SDK default) and lists models', async () => {
    const embeddings = await client().embeddings.create({
      model: 'text-embedding-3-small',
      input: 'hello',
      dimensions: 6,
    });
    expect(embeddings.data[0]?.embedding).toHaveLength(6);
    expect(embeddings.usage.prompt_tokens).toBe(1);
    const ids: string[] = [];
    for await (const model of client().models.list()) ids.push(model.id);
    expect(ids).toContain('gpt-4o');
  });

  it('handles completions, images, moderations and speech', async () => {
    const completion = await client().completions.create({
      model: 'gpt-3.5-turbo-instruct',
      prompt: 'Say hi',
    });
    expect(completion.choices[0]?.text).toBe('Hello from mock gpt-3.5-turbo-instruct: Say hi');
    const image = await client().images.generate({ model: 'gpt-image-1', prompt: 'a fox' });
    expect(image.data?.[0]?.b64_json).toBeTruthy();
    const moderation = await client().moderations.create({ model: 'omni-moderation-latest', input: 'hello' });
    expect(moderation.results[0]?.flagged).toBe(false);
    const speech = await client().audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'hello' });
    expect((await speech.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });
});
