import { describe, expect, it } from 'vitest';
import { scanOpenAIChunk } from './openai-chunk-scanner.js';

function scan(payload: string, wantIdentity = true) {
  const seen = {
    text: [] as string[],
    tools: [] as string[],
    finish: [] as string[],
    identity: [] as unknown[],
  };
  const needsParse = scanOpenAIChunk(
    payload,
    {
      text: (value) => seen.text.push(value),
      toolCall: (name) => seen.tools.push(name),
      finishReason: (value) => seen.finish.push(value),
      identity: (id, model) => seen.identity.push([id, model]),
    },
    wantIdentity,
  );
  return { needsParse, ...seen };
}

describe('scanOpenAIChunk', () => {
  it('reads content, finish reason and identity', () => {
    const result = scan(
      '{"id":"c1","object":"chat.completion.chunk","model":"gpt-4o","choices":[{"index":0,"delta":{"content":"Hi \\"there\\" \\u00e9"},"finish_reason":"stop"}],"usage":null}',
    );
    expect(result).toEqual({
      needsParse: false,
      text: ['Hi "there" é'],
      tools: [],
      finish: ['stop'],
      identity: [['c1', 'gpt-4o']],
    });
  });

  it('asks for a full parse when usage or error is present', () => {
    expect(scan('{"choices":[],"usage":{"prompt_tokens":1}}').needsParse).toBe(true);
    expect(scan('{"error":{"message":"x"}}').needsParse).toBe(true);
    expect(scan('{"choices":[],"usage" : null, "error":null}').needsParse).toBe(false);
  });

  it('is not fooled by key-like text inside strings', () => {
    const result = scan(
      JSON.stringify({ choices: [{ delta: { content: 'say "usage":{"a":1} and "content":"x"' } }] }),
    );
    expect(result.needsParse).toBe(false);
    expect(result.text).toEqual(['say "usage":{"a":1} and "content":"x"']);
  });

  it('handles whitespace, backslashes before quotes and values named like keys', () => {
    const result = scan(
      '{ "role" : "content" , "delta" : { "content" : "ends with \\\\" } , "finish_reason" : null }',
    );
    expect(result.text).toEqual(['ends with \\']);
    expect(result.finish).toEqual([]);
  });

  it('reads tool calls and legacy function calls only inside their objects', () => {
    const tools = scan(
      '{"name":"not-a-tool","choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"get_weather","arguments":"{\\"q\\":1}"}},{"index":1,"function":{"name":"two","arguments":""}}]}}]}',
    );
    expect(tools.tools).toEqual(['get_weather', 'two']);
    expect(tools.text).toEqual(['{"q":1}']);
    const legacy = scan('{"choices":[{"delta":{"function_call":{"name":"f","arguments":"{}"}}}]}');
    expect([legacy.tools, legacy.text]).toEqual([['f'], ['{}']]);
  });

  it('counts reasoning once when both fields are sent', () => {
    expect(scan('{"choices":[{"delta":{"reasoning_content":"think","reasoning":"think"}}]}').text).toEqual([
      'think',
    ]);
    expect(scan('{"choices":[{"delta":{"reasoning":"only"}}]}').text).toEqual(['only']);
  });

  it('reads legacy completion text but not text elsewhere', () => {
    expect(scan('{"object":"text_completion","choices":[{"text":"once upon","index":0}]}').text).toEqual([
      'once upon',
    ]);
    expect(
      scan(
        '{"object":"chat.completion.chunk","choices":[{"delta":{"content":[{"type":"text","text":"x"}]}}]}',
      ).text,
    ).toEqual([]);
  });

  it('stops quietly on truncated input and reports identity only when asked', () => {
    expect(scan('{"choices":[{"delta":{"content":"unterminated').text).toEqual([]);
    expect(scan('{"id":"c1","model":"m"}', false).identity).toEqual([]);
  });
});
