import { describe, expect, it } from 'vitest';
import { openAIAdapter } from '../../providers/openai/openai-adapter.js';
import type { RelayCall } from '../../spec/relay-call.js';
import { geminiCodec } from './gemini-codec.js';

const streamPath = '/v1beta/models/gemini-2.5-flash:streamGenerateContent';
const sseQuery = new URLSearchParams('alt=sse');

function geminiCall(
  body: Record<string, unknown>,
  stream = true,
  query: URLSearchParams | undefined = sseQuery,
): RelayCall {
  return geminiCodec.parseRequest({
    json: body,
    path: stream ? streamPath : '/v1beta/models/gemini-2.5-flash:generateContent',
    query,
  });
}
const simple = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };

describe('Gemini client → OpenAI upstream (toChatCall)', () => {
  it('converts a full conversation (golden) and the OpenAI adapter sends it', () => {
    const call = geminiCall({
      systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Use metric units.' }] },
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Weather and time here?' },
            { inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQ' } },
            { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/map.png' } },
          ],
        },
        {
          role: 'model',
          parts: [
            { text: 'thinking...', thought: true },
            { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
            { functionCall: { name: 'get_time', args: {} } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_time', response: { time: '12:00' } } },
            { functionResponse: { name: 'get_weather', response: { temp: 21 } } },
          ],
        },
        { role: 'user', parts: [{ inlineData: { mimeType: 'audio/mp3', data: 'SUQz' } }] },
      ],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'Weather',
              parameters: {
                type: 'OBJECT',
                properties: { city: { type: 'STRING', nullable: true } },
                required: ['city'],
              },
            },
            { name: 'get_time' },
          ],
        },
        { googleSearch: {} },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY' } },
      generationConfig: {
        temperature: 0.3,
        topP: 0.8,
        topK: 40,
        maxOutputTokens: 256,
        stopSequences: ['END'],
        candidateCount: 2,
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT', properties: { answer: { type: 'STRING' } } },
        thinkingConfig: { thinkingBudget: 4096 },
      },
    });
    const chat = geminiCodec.toChatCall!(call);
    expect(chat).toMatchObject({
      protocol: 'openai-chat',
      model: 'gemini-2.5-flash',
      stream: true,
      includeUsage: true,
      rawBody: undefined,
    });
    expect(chat.body).toEqual({
      model: 'gemini-2.5-flash',
      messages: [
        { role: 'system', content: 'Be brief.\nUse metric units.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather and time here?' },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
            { type: 'image_url', image_url: { url: 'https://example.com/map.png' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_0',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
            { id: 'call_1', type: 'function', function: { name: 'get_time', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"time":"12:00"}' },
        { role: 'tool', tool_call_id: 'call_0', content: '{"temp":21}' },
        { role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } }] },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather',
            parameters: {
              type: 'object',
              properties: { city: { type: ['string', 'null'] } },
              required: ['city'],
            },
          },
        },
        { type: 'function', function: { name: 'get_time' } },
      ],
      web_search_options: {},
      tool_choice: 'required',
      temperature: 0.3,
      top_p: 0.8,
      max_tokens: 256,
      n: 2,
      stop: ['END'],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'response',
          schema: { type: 'object', properties: { answer: { type: 'string' } } },
        },
      },
      reasoning_effort: 'medium',
      stream: true,
      stream_options: { include_usage: true },
    });
    const request = openAIAdapter.buildRequest(chat, { type: 1, key: 'sk-test' });
    expect(request.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(JSON.parse(String(request.body)).messages).toHaveLength(6);
    expect(request.streamUsageForced).toBe(false);
  });

  it('maps thinking budgets and tool configs', () => {
    const effort = (thinkingConfig: Record<string, unknown>) =>
      geminiCodec.toChatCall!(geminiCall({ ...simple, generationConfig: { thinkingConfig } }, false)).body
        .reasoning_effort;
    expect([0, -1, 512, 8192, 20000].map((thinkingBudget) => effort({ thinkingBudget }))).toEqual([
      'minimal',
      'medium',
      'low',
      'medium',
      'high',
    ]);
    expect(effort({ thinkingLevel: 'HIGH' })).toBe('high');
    const tools = [{ functionDeclarations: [{ name: 'f' }, { name: 'g' }] }];
    const choice = (functionCallingConfig: Record<string, unknown>) =>
      geminiCodec.toChatCall!(geminiCall({ ...simple, tools, toolConfig: { functionCallingConfig } }, false))
        .body.tool_choice;
    expect(choice({ mode: 'NONE' })).toBe('none');
    expect(choice({ mode: 'AUTO' })).toBe('auto');
    expect(choice({ mode: 'ANY', allowedFunctionNames: ['g'] })).toEqual({
      type: 'function',
      function: { name: 'g' },
    });
    const plain = geminiCodec.toChatCall!(
      geminiCall({ ...simple, generationConfig: { responseMimeType: 'application/json' } }, false),
    );
    expect(plain.body).toEqual({
      model: 'gemini-2.5-flash',
      messages: [{ role: 'user', content: 'hi' }],
      response_format: { type: 'json_object' },
    });
  });
});
