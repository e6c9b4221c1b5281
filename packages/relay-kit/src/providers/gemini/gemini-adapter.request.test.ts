import { describe, expect, it } from 'vitest';
import { parseGeminiRequest } from '../../protocols/gemini/gemini-codec.js';
import { parseOpenAIChatRequest } from '../../protocols/openai-chat/openai-chat-codec.js';
import type { ChannelRuntime } from '../../spec/channel-runtime.js';
import { DEFAULT_PROVIDER_SETTINGS, type ProviderSettings } from '../../spec/provider-settings.js';
import { toBytes } from '../../testing/sse-fixtures.js';
import { geminiAdapter } from './gemini-adapter.js';

const channel: ChannelRuntime = { type: 24, key: 'AIzaTestKey' };
const chat = (body: Record<string, unknown>) =>
  parseOpenAIChatRequest({ json: { model: 'gemini-2.0-flash', ...body } });
const bodyOf = (body: string | Uint8Array | undefined) =>
  JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body));

describe('geminiAdapter.buildRequest (openai-chat → Gemini)', () => {
  it('converts messages, tools, sampling and reasoning (golden)', () => {
    const call = chat({
      stream: true,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.webp?size=large' } },
            { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Let me look.',
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'lookup', arguments: '{"q":"cat"}' } },
            { id: 'call_b', type: 'function', function: { name: 'time', arguments: 'not json' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: '{"found":true}' },
        { role: 'tool', tool_call_id: 'call_b', content: 'noon' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'lookup',
            description: 'Looks things up',
            parameters: {
              $schema: 'http://json-schema.org/draft-07/schema#',
              type: 'object',
              additionalProperties: false,
              properties: {
                q: { type: 'string', format: 'uri', description: 'query' },
                limit: { type: ['integer', 'null'] },
                mode: { const: 'fast' },
              },
              required: ['q', 'missing'],
            },
            strict: true,
          },
        },
        { type: 'function', function: { name: 'time', parameters: { type: 'object', properties: {} } } },
        { type: 'function', function: { name: 'googleSearch' } },
        { type: 'function', function: { name: 'codeExecution' } },
      ],
      tool_choice: { type: 'function', function: { name: 'lookup' } },
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 300,
      stop: 'END',
      seed: 7,
      reasoning_effort: 'low',
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'x',
          schema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
        },
      },
    });
    const request = geminiAdapter.buildRequest(call, channel);
    expect(request.url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse',
    );
    expect(request.headers).toEqual({ 'content-type': 'application/json', 'x-goog-api-key': 'AIzaTestKey' });
    expect(request.streamUsageForced).toBe(false);
    expect(request.warnings).toEqual([
      'arguments of the tool call "time" are not a JSON object and were sent as {}',
    ]);
    expect(bodyOf(request.body)).toEqual({
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'What is in these?' },
            { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
            { fileData: { mimeType: 'image/webp', fileUri: 'https://example.com/cat.webp?size=large' } },
            { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
          ],
        },
        {
          role: 'model',
          parts: [
            { text: 'Let me look.' },
            { functionCall: { name: 'lookup', args: { q: 'cat' } } },
            { functionCall: { name: 'time', args: {} } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'lookup', response: { found: true } } },
            { functionResponse: { name: 'time', response: { content: 'noon' } } },
          ],
        },
      ],
      systemInstruction: { parts: [{ text: 'Be brief.\nAnswer in French.' }] },
      tools: [
        {
          functionDeclarations: [
            {
              name: 'lookup',
              description: 'Looks things up',
              parameters: {
                type: 'object',
                properties: {
                  q: { type: 'string', description: 'query' },
                  limit: { type: 'integer', nullable: true },
                  mode: { enum: ['fast'] },
                },
                required: ['q'],
              },
            },
            { name: 'time' },
          ],
        },
        { googleSearch: {} },
        { codeExecution: {} },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['lookup'] } },
      safetySettings: [
        { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'OFF' },
        { category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'OFF' },
        { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', threshold: 'OFF' },
        { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', threshold: 'OFF' },
        { category: 'HARM_CATEGORY_CIVIC_INTEGRITY', threshold: 'BLOCK_NONE' },
      ],
      generationConfig: {
        temperature: 0.2,
        topP: 0.9,
        seed: 7,
        maxOutputTokens: 300,
        stopSequences: ['END'],
        responseMimeType: 'application/json',
        responseSchema: { type: 'object', properties: { a: { type: 'string' } } },
        thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
      },
    });
  });

  it('applies version and safety settings, mapping, overrides and the base URL', () => {
    const settings: ProviderSettings = {
      ...DEFAULT_PROVIDER_SETTINGS,
      gemini: {
        safetySettings: { default: 'BLOCK_ONLY_HIGH', HARM_CATEGORY_HARASSMENT: 'BLOCK_LOW_AND_ABOVE' },
        versionSettings: { default: 'v1beta', 'gemini-1.0-pro': 'v1' },
      },
    };
    const request = geminiAdapter.buildRequest(
      chat({ model: 'my-model', messages: [{ role: 'user', content: 'hi' }], reasoning_effort: 'none' }),
      {
        ...channel,
        baseUrl: 'https://proxy.example.com/',
        modelMapping: { 'my-model': 'gemini-1.0-pro' },
        paramOverride: { cachedContent: 'cachedContents/abc' },
        headerOverride: { 'X-Proxy-Key': 'k-{api_key}' },
      },
      settings,
    );
    expect(request.url).toBe('https://proxy.example.com/v1/models/gemini-1.0-pro:generateContent');
    expect(request.upstreamModel).toBe('gemini-1.0-pro');
    expect(request.headers['x-proxy-key']).toBe('k-AIzaTestKey');
    const body = bodyOf(request.body);
    expect(body.safetySettings.map((item: { threshold: string }) => item.threshold)).toEqual([
      'BLOCK_LOW_AND_ABOVE',
      'BLOCK_ONLY_HIGH',
      'BLOCK_ONLY_HIGH',
      'BLOCK_ONLY_HIGH',
      'BLOCK_ONLY_HIGH',
    ]);
    expect(body.cachedContent).toBe('cachedContents/abc');
    expect(body.generationConfig).toEqual({ thinkingConfig: { thinkingBudget: 0 } });
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'hi' }] }]);
  });

  it('forwards a native Gemini body byte-exact, even with a model mapping, and always streams SSE', () => {
    const raw = toBytes(
      '{"contents":[{"role":"user","parts":[{"text":"hi"}]}],  "generationConfig":{"topK":3}}',
    );
    const call = parseGeminiRequest({
      rawBody: raw,
      path: '/v1beta/models/gemini-pro:streamGenerateContent',
    });
    const request = geminiAdapter.buildRequest(call, {
      ...channel,
      modelMapping: { 'gemini-pro': 'gemini-2.5-pro' },
    });
    expect(request.body).toBe(raw);
    expect(request.url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    );
    const overridden = geminiAdapter.buildRequest(call, {
      ...channel,
      paramOverride: { cachedContent: 'c/1' },
    });
    expect(bodyOf(overridden.body)).toEqual({ ...call.body, cachedContent: 'c/1' });
  });

  it('refuses protocols it cannot convert', () => {
    const call = {
      ...chat({ messages: [{ role: 'user', content: 'x' }] }),
      protocol: 'openai-completions' as const,
    };
    expect(() => geminiAdapter.buildRequest(call, channel)).toThrow(/do not support openai-completions/);
  });
});
