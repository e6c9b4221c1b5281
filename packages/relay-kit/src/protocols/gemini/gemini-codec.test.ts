import { describe, expect, it } from 'vitest';
import { isRelayRequestError, type RelayRequestError } from '../../spec/request-error.js';
import { toBytes } from '../../testing/sse-fixtures.js';
import { geminiCodec } from './gemini-codec.js';
import { geminiWantsJsonArrayStream } from './gemini-path.js';

const path = '/v1beta/models/gemini-2.0-flash:generateContent';
const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];

function parseError(body: unknown, requestPath = path): RelayRequestError {
  try {
    geminiCodec.parseRequest({ json: body, path: requestPath });
  } catch (error) {
    if (isRelayRequestError(error)) return error;
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('geminiCodec.parseRequest', () => {
  it('reads model and stream from the path and keeps body, bytes and query', () => {
    const raw = toBytes(JSON.stringify({ contents, generationConfig: { maxOutputTokens: 64 } }));
    const query = new URLSearchParams('alt=sse');
    const call = geminiCodec.parseRequest({
      rawBody: raw,
      path: '/v1/models/gemini-2.5-pro:streamGenerateContent',
      query,
    });
    expect(call).toMatchObject({
      protocol: 'gemini',
      model: 'gemini-2.5-pro',
      upstreamModel: 'gemini-2.5-pro',
      stream: true,
      includeUsage: false,
      maxTokens: 64,
    });
    expect(call.rawBody).toBe(raw);
    expect(call.query).toBe(query);
    expect(geminiWantsJsonArrayStream(call)).toBe(false);
    expect(geminiWantsJsonArrayStream({ ...call, query: undefined })).toBe(true);
    expect(geminiCodec.parseRequest({ json: { contents }, path }).stream).toBe(false);
  });

  it('accepts snake_case fields, single-object parts and every part kind', () => {
    const call = geminiCodec.parseRequest({
      path,
      json: {
        system_instruction: { parts: { text: 'Be kind.' } },
        contents: [
          {
            role: 'user',
            parts: [
              { text: 'look' },
              { inline_data: { mime_type: 'image/png', data: 'AAAA' } },
              { file_data: { file_uri: 'gs://bucket/a.pdf', mime_type: 'application/pdf' } },
            ],
          },
          {
            role: 'model',
            parts: [{ functionCall: { name: 'f', args: { a: 1 } }, thoughtSignature: 'sig' }],
          },
          { parts: [{ functionResponse: { name: 'f', response: { ok: true } } }] },
        ],
        tools: [
          { function_declarations: [{ name: 'f', parameters: { type: 'OBJECT' } }] },
          { googleSearch: {} },
        ],
        generation_config: { max_output_tokens: 10, thinking_config: { thinking_budget: -1 } },
      },
    });
    expect(call.maxTokens).toBe(10);
    expect(call.prompt).toEqual({
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be kind.' }] },
        { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image' }, { type: 'file' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'f {"a":1}' }] },
        { role: 'user', content: [{ type: 'text', text: '{"ok":true}' }] },
      ],
      tools: [{ name: 'f', description: undefined, parameters: { type: 'OBJECT' } }],
    });
  });

  it.each([
    [
      { contents },
      '/v1beta/models/gemini-x:predict',
      'request:invalid_body',
      400,
      'path',
      'the method "predict" is not supported',
    ],
    [{ contents }, '/v1/chat/completions', 'request:invalid_body', 400, 'path', 'the request path must be'],
    [{}, path, 'request:invalid_body', 400, 'contents', '"contents" is required'],
    [
      { contents: {} },
      path,
      'request:invalid_body',
      400,
      'contents',
      '"contents" must be an array, got an object',
    ],
    [
      { contents: [] },
      path,
      'request:invalid_body',
      400,
      'contents',
      '"contents" must contain at least one content',
    ],
    [
      { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] },
      path,
      'request:invalid_body',
      400,
      'contents[0].role',
      'contents[0].role must be "user" or "model"',
    ],
    [
      { contents: [{ role: 'user' }] },
      path,
      'request:invalid_body',
      400,
      'contents[0].parts',
      'contents[0].parts is required',
    ],
    [
      { contents: [{ parts: [{}] }] },
      path,
      'request:invalid_body',
      400,
      'contents[0].parts[0]',
      'contents[0].parts[0] must have exactly one of text',
    ],
    [
      { contents: [{ parts: [{ text: 'a', inlineData: {} }] }] },
      path,
      'request:invalid_body',
      400,
      'contents[0].parts[0]',
      'contents[0].parts[0] must have exactly one',
    ],
    [
      { contents: [{ parts: [{ text: 5 }] }] },
      path,
      'request:invalid_body',
      400,
      'contents[0].parts[0].text',
      'contents[0].parts[0].text must be a string, got the number 5',
    ],
    [
      { contents: [{ parts: [{ inlineData: { mimeType: 'image/png' } }] }] },
      path,
      'request:invalid_body',
      400,
      'contents[0].parts[0].inlineData.data',
      'contents[0].parts[0].inlineData.data must be a non-empty string',
    ],
    [
      { contents: [{ parts: [{ functionCall: { name: 'f', args: [] } }] }] },
      path,
      'request:invalid_body',
      400,
      'contents[0].parts[0].functionCall.args',
      'contents[0].parts[0].functionCall.args must be an object',
    ],
    [
      { contents, systemInstruction: 'be kind' },
      path,
      'request:invalid_body',
      400,
      'systemInstruction',
      'systemInstruction must be an object, got a string',
    ],
    [
      { contents, tools: [{ functionDeclarations: [{ description: 'x' }] }] },
      path,
      'request:invalid_body',
      400,
      'tools[0].functionDeclarations[0].name',
      'tools[0].functionDeclarations[0].name must be a non-empty string',
    ],
    [
      { contents, toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } } },
      path,
      'request:invalid_body',
      400,
      'toolConfig.functionCallingConfig.mode',
      '"toolConfig.functionCallingConfig.mode" must be AUTO, ANY, NONE or VALIDATED',
    ],
    [
      { contents, generationConfig: { temperature: 3 } },
      path,
      'request:invalid_body',
      400,
      'generationConfig.temperature',
      '"generationConfig.temperature" must be a number between 0 and 2, got the number 3',
    ],
    [
      { contents, generationConfig: { maxOutputTokens: 1.5 } },
      path,
      'request:invalid_body',
      400,
      'generationConfig.maxOutputTokens',
      '"generationConfig.maxOutputTokens" must be an integer',
    ],
    [
      { contents, generationConfig: { stopSequences: 'END' } },
      path,
      'request:invalid_body',
      400,
      'generationConfig.stopSequences',
      '"generationConfig.stopSequences" must be an array of strings',
    ],
    [
      { contents, generationConfig: { thinkingConfig: { thinkingBudget: -2 } } },
      path,
      'request:invalid_body',
      400,
      'generationConfig.thinkingConfig.thinkingBudget',
      '"generationConfig.thinkingConfig.thinkingBudget" must be an integer between -1',
    ],
    [
      { contents, safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT' }] },
      path,
      'request:invalid_body',
      400,
      'safetySettings[0].threshold',
      'safetySettings[0].threshold must be a non-empty string',
    ],
  ] as const)('rejects %j on %s', (body, requestPath, code, status, param, message) => {
    const error = parseError(body, requestPath);
    expect([error.code, error.status, error.param]).toEqual([code, status, param]);
    expect(error.message.startsWith(message)).toBe(true);
  });

  it('rejects invalid JSON with a clear message', () => {
    expect(() => geminiCodec.parseRequest({ rawBody: '{"contents":', path })).toThrow(
      /request body is not valid JSON/,
    );
  });
});

describe('geminiCodec errors', () => {
  it('writes Google error bodies and stream events', () => {
    expect(JSON.parse(geminiCodec.formatError({ status: 400, message: '"contents" is required' }))).toEqual({
      error: { code: 400, message: '"contents" is required', status: 'INVALID_ARGUMENT' },
    });
    const statuses = [401, 403, 404, 429, 500, 503, 413, 504].map(
      (status) => JSON.parse(geminiCodec.formatError({ status, message: 'x' })).error.status,
    );
    expect(statuses).toEqual([
      'UNAUTHENTICATED',
      'PERMISSION_DENIED',
      'NOT_FOUND',
      'RESOURCE_EXHAUSTED',
      'INTERNAL',
      'UNAVAILABLE',
      'INVALID_ARGUMENT',
      'INTERNAL',
    ]);
    expect(geminiCodec.formatStreamError({ status: 500, message: 'boom' })).toBe(
      'data: {"error":{"code":500,"message":"boom","status":"INTERNAL"}}\r\n\r\n',
    );
  });
});
