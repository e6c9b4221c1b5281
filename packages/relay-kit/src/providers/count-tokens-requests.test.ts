import { describe, expect, it } from 'vitest';
import { parseAnthropicMessagesRequest } from '../protocols/anthropic-messages/anthropic-messages-codec.js';
import { parseGeminiCountTokensRequest } from '../protocols/gemini/gemini-count-tokens.js';
import { parseGeminiEmbeddingsRequest } from '../protocols/gemini/gemini-embeddings-codec.js';
import { anthropicAdapter } from './anthropic/anthropic-adapter.js';
import { geminiAdapter } from './gemini/gemini-adapter.js';

const text = (body: string | Uint8Array | undefined) =>
  typeof body === 'string' ? body : new TextDecoder().decode(body);

describe('upstream token counts and Gemini method requests', () => {
  it("sends Anthropic's count_tokens the client's bytes, with the Messages headers", () => {
    const raw =
      '{"model":"claude-x","messages":[{"role":"user","content":"hi"}],"thinking":{"type":"adaptive"}}';
    const call = parseAnthropicMessagesRequest({
      rawBody: raw,
      headers: { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'b1' },
    });
    const request = anthropicAdapter.buildCountTokensRequest!(call, {
      type: 14,
      key: 'sk-ant',
      baseUrl: 'http://up',
    });
    expect(request.url).toBe('http://up/v1/messages/count_tokens');
    expect(request.body).toBe(raw);
    expect(request.headers).toMatchObject({
      'x-api-key': 'sk-ant',
      'anthropic-version': '2023-06-01',
      'anthropic-beta': 'b1',
    });
    const mapped = anthropicAdapter.buildCountTokensRequest!(call, {
      type: 14,
      key: 'k',
      modelMapping: { 'claude-x': 'claude-y' },
    });
    expect(JSON.parse(text(mapped.body))).toMatchObject({
      model: 'claude-y',
      thinking: { type: 'adaptive' },
    });
    expect(mapped.upstreamModel).toBe('claude-y');
  });

  it("sends Gemini's countTokens and embedding methods to the same method, models renamed when mapped", () => {
    const count = parseGeminiCountTokensRequest({
      path: '/v1beta/models/gemini-x:countTokens',
      json: { generateContentRequest: { model: 'models/gemini-x', contents: [{ parts: [{ text: 'hi' }] }] } },
    });
    const channel = { type: 24, key: 'g', baseUrl: 'http://up', modelMapping: { 'gemini-x': 'gemini-y' } };
    const counted = geminiAdapter.buildCountTokensRequest!(count, channel);
    expect(counted.url).toBe('http://up/v1beta/models/gemini-y:countTokens');
    expect(JSON.parse(text(counted.body)).generateContentRequest.model).toBe('models/gemini-y');
    const raw = '{"requests":[{"model":"models/e","content":{"parts":[{"text":"a"}]}}]}';
    const embed = parseGeminiEmbeddingsRequest({ path: '/v1beta/models/e:batchEmbedContents', rawBody: raw });
    const unmapped = geminiAdapter.buildRequest(embed, { type: 24, key: 'g', baseUrl: 'http://up' });
    expect(unmapped.url).toBe('http://up/v1beta/models/e:batchEmbedContents');
    expect(unmapped.body).toBe(raw);
    expect(unmapped.headers['x-goog-api-key']).toBe('g');
  });
});
