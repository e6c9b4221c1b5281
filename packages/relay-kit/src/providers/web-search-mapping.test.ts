import { describe, expect, it } from 'vitest';
import { parseOpenAIChatRequest } from '../protocols/openai-chat/openai-chat-codec.js';
import { anthropicAdapter } from './anthropic/anthropic-adapter.js';
import { geminiAdapter } from './gemini/gemini-adapter.js';

/** A converted call asking for web search (as the Responses and Anthropic conversions write it). */
const call = parseOpenAIChatRequest({
  json: {
    model: 'm',
    messages: [{ role: 'user', content: 'news?' }],
    tools: [
      { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } },
    ],
    web_search_options: { user_location: { type: 'approximate', approximate: { city: 'Paris' } } },
  },
});
const bodyOf = (body: string | Uint8Array | undefined) =>
  JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body)) as Record<string, unknown>;

describe("chat's web_search_options on upstreams with a search tool of their own", () => {
  it("becomes Anthropic's web search server tool beside the functions", () => {
    const body = bodyOf(anthropicAdapter.buildRequest(call, { type: 14, key: 'k' }).body);
    expect(body.tools).toEqual([
      { name: 'lookup', input_schema: { type: 'object', properties: {} } },
      {
        type: 'web_search_20250305',
        name: 'web_search',
        user_location: { type: 'approximate', city: 'Paris' },
      },
    ]);
    expect(body.web_search_options).toBeUndefined();
  });

  it("becomes Gemini's Google Search grounding", () => {
    const body = bodyOf(geminiAdapter.buildRequest(call, { type: 24, key: 'k' }).body);
    expect(body.tools).toEqual([{ functionDeclarations: [{ name: 'lookup' }] }, { googleSearch: {} }]);
  });

  it('is declared by the adapters that map it', () => {
    expect(anthropicAdapter.webSearch).toBe(true);
    expect(geminiAdapter.webSearch).toBe(true);
  });
});
