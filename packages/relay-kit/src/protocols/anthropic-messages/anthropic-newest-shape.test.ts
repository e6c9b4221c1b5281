import { describe, expect, it } from 'vitest';
import { isRelayRequestError } from '../../spec/request-error.js';
import { anthropicMessagesCodec, parseAnthropicMessagesRequest } from './anthropic-messages-codec.js';

/** A request as Claude Code's newest releases send it. */
const newest = {
  model: 'claude-sonnet-4-5',
  max_tokens: 32000,
  stream: true,
  system: [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } }],
  messages: [
    {
      role: 'user',
      content: [{ type: 'text', text: 'List the files', cache_control: { type: 'ephemeral' } }],
    },
    { role: 'system', content: 'The user switched to plan mode.' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'hmm', signature: 'sig' },
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
        { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.txt' },
        { type: 'search_result', source: 'https://x', title: 't', content: [], text: 'found' },
      ],
    },
  ],
  tools: [
    {
      name: 'Bash',
      description: 'Run',
      input_schema: { type: 'object' },
      cache_control: { type: 'ephemeral' },
    },
    {
      type: 'web_search_20250305',
      name: 'web_search',
      max_uses: 5,
      user_location: { type: 'approximate', city: 'Paris' },
    },
  ],
  thinking: { type: 'adaptive' },
  output_config: { effort: 'high' },
  context_management: { edits: [{ type: 'clear_thinking_20251015' }] },
  metadata: { user_id: 'user_abc' },
};

describe('Claude Messages, newest request shape', () => {
  it('is accepted with its bytes, unknown fields and anthropic-beta kept for Anthropic upstreams', () => {
    const raw = JSON.stringify(newest);
    const call = parseAnthropicMessagesRequest({
      rawBody: raw,
      headers: {
        'anthropic-version': '2023-06-01',
        'anthropic-beta': 'context-management-2025-06-27,effort-2025-11-24',
      },
    });
    expect(call.rawBody).toBe(raw);
    expect(call.body.output_config).toEqual({ effort: 'high' });
    expect(call.headers).toEqual({
      'anthropic-version': '2023-06-01',
      'anthropic-beta': 'context-management-2025-06-27,effort-2025-11-24',
    });
    expect(call.prompt.messages?.map((message) => message.role)).toEqual([
      'system',
      'user',
      'system',
      'assistant',
      'user',
    ]);
  });

  it('converts to chat with system messages in place and what has no equivalent dropped', () => {
    const chat = anthropicMessagesCodec.toChatCall!(parseAnthropicMessagesRequest({ json: newest }));
    expect(chat.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 32000,
      user: 'user_abc',
      stream: true,
      stream_options: { include_usage: true },
      tools: [
        { type: 'function', function: { name: 'Bash', description: 'Run', parameters: { type: 'object' } } },
      ],
      web_search_options: { user_location: { type: 'approximate', approximate: { city: 'Paris' } } },
      messages: [
        { role: 'system', content: 'You are Claude Code.' },
        { role: 'user', content: 'List the files' },
        { role: 'system', content: 'The user switched to plan mode.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'Bash', arguments: '{"command":"ls"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'a.txt' },
        { role: 'user', content: 'found' },
      ],
    });
  });

  it('leaves out deferred tools, which the model sees only after a tool search', () => {
    const chat = anthropicMessagesCodec.toChatCall!(
      parseAnthropicMessagesRequest({
        json: {
          ...newest,
          tools: [
            { name: 'DeferredToolPlaceholder', defer_loading: true, input_schema: { type: 'object' } },
            { name: 'Glob', input_schema: { type: 'object', properties: { pattern: { type: 'string' } } } },
          ],
        },
      }),
    );
    const tools = chat.body.tools as Array<{ function: { name: string } }>;
    expect(tools.map((tool) => tool.function.name)).toEqual(['Glob']);
  });

  it('refuses a server tool chat cannot run, naming it', () => {
    try {
      anthropicMessagesCodec.toChatCall!(
        parseAnthropicMessagesRequest({
          json: { ...newest, tools: [{ type: 'code_execution_20250825', name: 'code_execution' }] },
        }),
      );
      throw new Error('accepted');
    } catch (error) {
      if (!isRelayRequestError(error)) throw error;
      expect(error.status).toBe(400);
      expect(error.param).toBe('tools[0]');
      expect(error.message).toContain('code_execution_20250825');
    }
  });
});
