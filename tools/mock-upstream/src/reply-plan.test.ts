import { describe, expect, it } from 'vitest';
import { defaultScenario, parseScenario } from './mock-scenario.ts';
import { buildPlaceholderArguments, buildReplyText, planReply } from './reply-plan.ts';

const conversation = {
  countedPromptTokens: 10,
  lastUserText: 'What is the capital of France?',
  endsWithToolResult: false,
};

describe('planReply', () => {
  it('echoes the model and the start of the last user message, counting words', () => {
    const plan = planReply({
      model: 'gpt-4o',
      conversation,
      tool: undefined,
      thinking: false,
      maxTokens: undefined,
      scenario: defaultScenario,
    });
    expect(plan.text).toBe('Hello from mock gpt-4o: What is the capital of France?');
    expect(plan.textPieces.join('')).toBe(plan.text);
    expect(plan.usage).toEqual({
      promptTokens: 10,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: 10,
      reasoningTokens: 0,
    });
    expect(plan.finish).toBe('stop');
  });

  it('truncates the echo to 40 characters', () => {
    expect(buildReplyText('m', 'x'.repeat(50))).toBe(`Hello from mock m: ${'x'.repeat(40)}`);
  });

  it('pads and regroups for chunks-<n> and stops at max tokens', () => {
    const padded = planReply({
      model: 'm',
      conversation: { ...conversation, lastUserText: 'hi' },
      tool: undefined,
      thinking: false,
      maxTokens: undefined,
      scenario: parseScenario('chunks-8'),
    });
    expect(padded.textPieces).toHaveLength(8);
    expect(padded.text).toBe('Hello from mock m: hi more more more');
    const grouped = planReply({
      model: 'm',
      conversation,
      tool: undefined,
      thinking: false,
      maxTokens: undefined,
      scenario: parseScenario('chunks-2'),
    });
    expect(grouped.textPieces).toHaveLength(2);
    const limited = planReply({
      model: 'm',
      conversation,
      tool: undefined,
      thinking: false,
      maxTokens: 3,
      scenario: defaultScenario,
    });
    expect(limited.text).toBe('Hello from mock');
    expect(limited.finish).toBe('length');
  });

  it('reports cache tokens inside the prompt and raises the prompt when the cache is larger', () => {
    const plan = planReply({
      model: 'm',
      conversation,
      tool: undefined,
      thinking: false,
      maxTokens: undefined,
      scenario: parseScenario('cached-30,cache-write-5'),
    });
    expect(plan.usage).toMatchObject({ promptTokens: 35, cachedTokens: 30, cacheWriteTokens: 5 });
  });

  it('plans a tool call with placeholder arguments streamed in 8-character fragments', () => {
    const plan = planReply({
      model: 'm',
      conversation,
      tool: {
        name: 'get_weather',
        parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { enum: ['c', 'f'] } } },
      },
      thinking: true,
      maxTokens: undefined,
      scenario: defaultScenario,
    });
    expect(plan.toolCall?.argumentsJson).toBe('{"city":"mock","unit":"c"}');
    expect(plan.toolCall?.argumentFragments.join('')).toBe(plan.toolCall?.argumentsJson);
    expect(plan.finish).toBe('tool');
    expect(plan.usage.outputTokens).toBe(1 + 4);
    expect(plan.usage.reasoningTokens).toBe(8);
  });

  it('fills placeholders by JSON schema type, Gemini upper-case types included', () => {
    expect(
      buildPlaceholderArguments({
        properties: {
          a: { type: 'INTEGER' },
          b: { type: 'boolean' },
          c: { type: 'array' },
          d: { type: 'object' },
        },
      }),
    ).toEqual({ a: 1, b: true, c: [], d: {} });
    expect(buildPlaceholderArguments(undefined)).toEqual({});
  });
});
