import { describe, expect, it } from 'vitest';
import { parseServerSentEvents } from '../server-sent-events.ts';
import { geminiHeaders, postJson, testFetch, useMockUpstream } from '../testing-helpers.ts';

const mock = useMockUpstream();

const request = {
  systemInstruction: { parts: [{ text: 'Be kind.' }] },
  contents: [{ role: 'user', parts: [{ text: 'Hello Gemini friend' }] }],
};

describe('Gemini endpoints', () => {
  it('generateContent answers with candidates and usageMetadata', async () => {
    const response = await postJson(
      mock.current,
      '/v1beta/models/gemini-2.0-flash:generateContent',
      request,
      geminiHeaders,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      candidates: [
        {
          content: {
            parts: [{ text: 'Hello from mock gemini-2.0-flash: Hello Gemini friend' }],
            role: 'model',
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 2 + 3 + 3 + 3,
        candidatesTokenCount: 7,
        totalTokenCount: 18,
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: 11 }],
      },
      modelVersion: 'gemini-2.0-flash',
      responseId: expect.any(String),
    });
  });

  it('streamGenerateContent?alt=sse sends CRLF-framed data lines ending with finishReason and full usage', async () => {
    const response = await postJson(
      mock.current,
      '/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse',
      { contents: [{ parts: [{ text: 'hi [[mock:cached-4]]' }] }] },
      geminiHeaders,
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text();
    expect(text).toContain('\r\n\r\n');
    const chunks = parseServerSentEvents(text).map((event) => JSON.parse(event.data));
    const joined = chunks.map((chunk) => chunk.candidates[0].content.parts[0].text).join('');
    expect(joined).toBe('Hello from mock gemini-2.0-flash: hi');
    expect(chunks.at(-1).candidates[0].finishReason).toBe('STOP');
    expect(chunks.at(-1).usageMetadata).toMatchObject({
      promptTokenCount: 5,
      candidatesTokenCount: 5,
      totalTokenCount: 10,
      cachedContentTokenCount: 4,
    });
  });

  it('streamGenerateContent without alt=sse streams a JSON array', async () => {
    const response = await postJson(
      mock.current,
      '/v1beta/models/gemini-2.0-flash:streamGenerateContent',
      request,
      geminiHeaders,
    );
    const chunks = JSON.parse(await response.text());
    expect(Array.isArray(chunks)).toBe(true);
    expect(chunks.at(-1).candidates[0].finishReason).toBe('STOP');
  });

  it('reports thoughts for thinking models and calls functions', async () => {
    const thinking = await (
      await postJson(
        mock.current,
        '/v1beta/models/gemini-2.5-flash-thinking:generateContent',
        request,
        geminiHeaders,
      )
    ).json();
    expect(thinking.candidates[0].content.parts[0]).toEqual({
      text: 'Mock reasoning: the user wants a deterministic answer.',
      thought: true,
    });
    expect(thinking.usageMetadata).toMatchObject({
      thoughtsTokenCount: 8,
      candidatesTokenCount: 7,
      totalTokenCount: 11 + 7 + 8,
    });
    const tools = [
      {
        functionDeclarations: [
          { name: 'lookup', parameters: { type: 'OBJECT', properties: { q: { type: 'STRING' } } } },
        ],
      },
    ];
    const call = await (
      await postJson(
        mock.current,
        '/v1beta/models/gemini-2.0-flash:generateContent',
        { ...request, tools },
        geminiHeaders,
      )
    ).json();
    expect(call.candidates[0].content.parts).toEqual([
      { functionCall: { name: 'lookup', args: { q: 'mock' } } },
    ]);
    const afterCall = await (
      await postJson(
        mock.current,
        '/v1beta/models/gemini-2.0-flash:generateContent',
        {
          tools,
          contents: [
            ...request.contents,
            { role: 'model', parts: [{ functionCall: { name: 'lookup', args: {} } }] },
            { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { result: 'ok' } } }] },
          ],
        },
        geminiHeaders,
      )
    ).json();
    expect(afterCall.candidates[0].content.parts[0].text).toBe(
      'Hello from mock gemini-2.0-flash: Hello Gemini friend',
    );
  });

  it('embedContent, batchEmbedContents and countTokens work', async () => {
    const embedded = await (
      await postJson(
        mock.current,
        '/v1beta/models/text-embedding-004:embedContent',
        { content: { parts: [{ text: 'hello' }] }, outputDimensionality: 4 },
        geminiHeaders,
      )
    ).json();
    expect(embedded.embedding.values).toHaveLength(4);
    const batch = await (
      await postJson(
        mock.current,
        '/v1beta/models/text-embedding-004:batchEmbedContents',
        {
          requests: [
            { content: { parts: [{ text: 'hello' }] }, outputDimensionality: 4 },
            { content: { parts: [{ text: 'x' }] } },
          ],
        },
        geminiHeaders,
      )
    ).json();
    expect(batch.embeddings[0].values).toEqual(embedded.embedding.values);
    const count = await (
      await postJson(mock.current, '/v1beta/models/gemini-2.0-flash:countTokens', request, geminiHeaders)
    ).json();
    expect(count.totalTokens).toBe(11);
  });

  it('lists models and accepts the key as ?key=', async () => {
    const list = await (await testFetch(`${mock.current.url}/v1beta/models?key=abc`)).json();
    expect(list.models[0]).toMatchObject({
      name: 'models/gemini-2.5-pro',
      supportedGenerationMethods: ['generateContent', 'countTokens'],
    });
    const one = await (await testFetch(`${mock.current.url}/v1beta/models/gemini-x?key=abc`)).json();
    expect(one.name).toBe('models/gemini-x');
  });

  it('answers auth problems with Google error shapes', async () => {
    const missing = await postJson(mock.current, '/v1beta/models/g:generateContent', request, {});
    expect(missing.status).toBe(403);
    expect((await missing.json()).error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' });
    const invalid = await postJson(
      mock.current,
      '/v1beta/models/g:generateContent?key=sk-invalid',
      request,
      {},
    );
    expect(invalid.status).toBe(400);
    const body = await invalid.json();
    expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(body.error.details[0].reason).toBe('API_KEY_INVALID');
  });
});
