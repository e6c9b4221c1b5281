import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChannel,
  createToken,
  type RelayFixture,
  relayPost,
  startRelayFixture,
} from '../relay/relay-support.ts';

const CLAUDE = 'claude-3-5-sonnet-20241022';
const GEMINI = 'gemini-2.0-flash';
const GPT = 'gpt-4o-mini';
const DEEPSEEK = 'deepseek-chat';

/** A Messages request as Claude Code's newest releases send it (system inside messages[]). */
function claudeCodeRequest(model: string) {
  return {
    model,
    max_tokens: 2000,
    system: [{ type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } }],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'list files', cache_control: { type: 'ephemeral' } }] },
      { role: 'system', content: 'Plan mode is on.' },
    ],
    tools: [
      {
        name: 'Bash',
        description: 'Run a command',
        input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
      },
      { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
    ],
    thinking: { type: 'adaptive' },
    output_config: { effort: 'medium' },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    metadata: { user_id: 'user_1_account_2_session_3' },
  };
}

/** The same conversation after the agent ran the tool. */
function withToolResult(
  request: ReturnType<typeof claudeCodeRequest>,
  toolUse: { id: string; input: unknown },
) {
  return {
    ...request,
    messages: [
      ...request.messages,
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: toolUse.id, name: 'Bash', input: toolUse.input }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'a.txt b.txt' }] },
    ],
  };
}

describe('coding agents’ request shapes through every channel type', () => {
  let f: RelayFixture;
  let key: string;
  let openai: OpenAI;
  const anthropicHeaders = () => ({
    'x-api-key': key,
    'anthropic-version': '2023-06-01',
    'anthropic-beta': 'context-management-2025-06-27,effort-2025-11-24',
  });
  const messages = (body: unknown) =>
    relayPost(f, null, body, { path: '/v1/messages', headers: anthropicHeaders() });

  beforeAll(async () => {
    f = await startRelayFixture();
    await createChannel(f, { name: 'anthropic', type: 14, models: CLAUDE });
    await createChannel(f, { name: 'gemini', type: 24, models: GEMINI });
    await createChannel(f, { name: 'openai', type: 1, models: GPT });
    await createChannel(f, { name: 'deepseek', type: 43, models: DEEPSEEK });
    ({ key } = await createToken(f.root));
    openai = new OpenAI({ apiKey: key, baseURL: `${f.baseUrl}/v1`, maxRetries: 0 });
  });
  afterAll(async () => f.close());

  it('passes Claude Code’s newest request to an Anthropic channel untouched, tool round trip included', async () => {
    const request = claudeCodeRequest(CLAUDE);
    const first = await messages(request);
    expect(first.status, first.text).toBe(200);
    const sent = f.mock.lastRequest()!;
    expect(sent.body).toEqual(request);
    expect(sent.headers['anthropic-beta']).toBe('context-management-2025-06-27,effort-2025-11-24');
    const toolUse = first.json.content.find((block: { type: string }) => block.type === 'tool_use');
    expect(toolUse).toMatchObject({ name: 'Bash', input: { command: 'mock' } });
    const second = await messages(withToolResult(request, toolUse));
    expect(second.status, second.text).toBe(200);
    // Adaptive thinking reached the upstream: its answer starts with a thinking block.
    expect(second.json.content[0].type).toBe('thinking');
    const text = second.json.content.find((block: { type: string }) => block.type === 'text');
    expect(text.text).toBe(`Hello from mock ${CLAUDE}: list files`);
  });

  it.each([
    [GPT, '/v1/chat/completions'],
    [GEMINI, `/v1beta/models/${GEMINI}:generateContent`],
  ])(
    'converts Claude Code’s newest request for a %s channel, tool round trip included',
    async (model, path) => {
      const request = claudeCodeRequest(model);
      const first = await messages(request);
      expect(first.status, first.text).toBe(200);
      const sent = f.mock.lastRequest()!;
      expect(sent.path).toBe(path);
      if (model === GPT) {
        // No search tool on this channel: the web search request is dropped, the rest converted.
        const body = sent.body as {
          messages: Array<{ role: string; content: unknown }>;
          web_search_options?: unknown;
        };
        expect(body.messages.map((message) => message.role)).toEqual(['system', 'user', 'system']);
        expect(body.messages[2]!.content).toBe('Plan mode is on.');
        expect(body.web_search_options).toBeUndefined();
      } else {
        const body = sent.body as { systemInstruction: unknown; tools: unknown[] };
        expect(JSON.stringify(body.systemInstruction)).toContain('Plan mode is on.');
        expect(body.tools).toContainEqual({ googleSearch: {} });
      }
      const toolUse = first.json.content.find((block: { type: string }) => block.type === 'tool_use');
      expect(toolUse).toMatchObject({ name: 'Bash', input: { command: 'mock' } });
      const second = await messages(withToolResult(request, toolUse));
      expect(second.status, second.text).toBe(200);
      expect(second.json.content[0].text).toBe(`Hello from mock ${model}: list files`);
    },
  );

  /** Tools as Codex sends them: MCP tools grouped in a namespace, web search, its own functions. */
  const codexTools = [
    {
      type: 'namespace',
      name: 'mcp__files',
      tools: [
        {
          type: 'function',
          name: 'read_file',
          strict: false,
          parameters: { type: 'object', properties: { path: { type: 'string' } } },
        },
      ],
    },
    { type: 'web_search' },
    { type: 'function', name: 'shell', strict: false, parameters: { type: 'object', properties: {} } },
  ] as unknown as OpenAI.Responses.Tool[];

  it('serves Codex’s Responses tools on an Anthropic channel: namespace flattened, web search mapped', async () => {
    const stream = await openai.responses.create({
      model: CLAUDE,
      instructions: 'You are Codex.',
      input: [{ role: 'user', content: 'read it' }],
      tools: codexTools,
      store: false,
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: 'thread-1',
      reasoning: { effort: 'low' },
      stream: true,
    });
    let call: OpenAI.Responses.ResponseFunctionToolCall | undefined;
    for await (const event of stream) {
      if (event.type === 'response.output_item.done' && event.item.type === 'function_call')
        call = event.item;
    }
    expect(call).toMatchObject({ name: 'read_file', arguments: '{"path":"mock"}' });
    const sent = f.mock.lastRequest()!.body as { tools: Array<Record<string, unknown>>; thinking?: unknown };
    expect(sent.tools.map((tool) => tool.name)).toEqual(['read_file', 'shell', 'web_search']);
    expect(sent.tools[2]).toMatchObject({ type: 'web_search_20250305' });
    expect(sent.thinking).toMatchObject({ type: 'enabled' });
    const answered = await openai.responses.create({
      model: CLAUDE,
      input: [
        { role: 'user', content: 'read it' },
        { type: 'function_call', call_id: call!.call_id, name: 'read_file', arguments: call!.arguments },
        { type: 'function_call_output', call_id: call!.call_id, output: 'contents' },
      ],
      tools: codexTools,
    });
    expect(answered.output_text).toContain(`Hello from mock ${CLAUDE}: read it`);
  });

  it('drops web search for a chat channel without one, serving the rest', async () => {
    const response = await openai.responses.create({ model: DEEPSEEK, input: 'read it', tools: codexTools });
    expect(response.output.find((item) => item.type === 'function_call')).toMatchObject({
      name: 'read_file',
    });
    const sent = f.mock.lastRequest()!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect((sent.body as { web_search_options?: unknown }).web_search_options).toBeUndefined();
  });

  it('serves a Gemini CLI request on an Anthropic channel: JSON-schema tools, Google Search as web search', async () => {
    const reply = await relayPost(
      f,
      null,
      {
        systemInstruction: { parts: [{ text: 'You are Gemini CLI.' }] },
        contents: [{ role: 'user', parts: [{ text: 'read the file' }] }],
        tools: [
          {
            functionDeclarations: [
              {
                name: 'read_file',
                parametersJsonSchema: { type: 'object', properties: { path: { type: 'string' } } },
              },
            ],
          },
          { googleSearch: {} },
        ],
        generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } },
      },
      { path: `/v1beta/models/${CLAUDE}:streamGenerateContent?alt=sse`, headers: { 'x-goog-api-key': key } },
    );
    expect(reply.status, reply.text).toBe(200);
    expect(reply.text).toContain('"functionCall":{"name":"read_file","args":{"path":"mock"}}');
    const sent = f.mock.lastRequest()!.body as { tools: Array<Record<string, unknown>> };
    expect(sent.tools.map((tool) => tool.name)).toEqual(['read_file', 'web_search']);
  });

  it('counts tokens for Claude Code’s newest request (with ?beta=true) on an Anthropic channel', async () => {
    const { max_tokens: _max, ...request } = claudeCodeRequest(CLAUDE);
    const reply = await relayPost(f, null, request, {
      path: '/v1/messages/count_tokens?beta=true',
      headers: anthropicHeaders(),
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.input_tokens).toBeGreaterThan(0);
    expect(f.mock.lastRequest()!.body).toEqual(request);
  });

  it('lists models in Anthropic’s shape for a Bearer token with anthropic-version', async () => {
    const response = await fetch(`${f.baseUrl}/v1/models`, {
      headers: { authorization: `Bearer ${key}`, 'anthropic-version': '2023-06-01' },
    });
    const body = (await response.json()) as { data: Array<{ type: string; id: string }>; has_more: boolean };
    expect(body.has_more).toBe(false);
    expect(body.data).toContainEqual(expect.objectContaining({ type: 'model', id: CLAUDE }));
  });
});
