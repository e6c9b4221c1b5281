import { describe, expect, it } from 'vitest';
import type { PromptInput } from '../spec/prompt-input.js';
import {
  countGeneratedTokens,
  countResponseTokens,
  createQuickTokenCounter,
  estimateChatPromptTokens,
  estimatePromptTokens,
  MEDIA_TOKENS,
} from './estimate-prompt-tokens.js';
import { countTextTokens } from './token-counter.js';

const user = (
  content: PromptInput['messages'] extends readonly (infer M)[] | undefined
    ? M extends { content: infer C }
      ? C
      : never
    : never,
) => ({
  role: 'user',
  content,
});

describe('estimatePromptTokens', () => {
  it('adds 3 per message plus role and content, and 3 at the end (OpenAI cookbook values)', () => {
    expect(estimateChatPromptTokens([{ role: 'user', content: 'hi' }], 'gpt-4o')).toBe(8);
    expect(
      estimateChatPromptTokens(
        [
          { role: 'system', content: 'You are a helpful assistant.' },
          { role: 'user', content: 'hello world' },
        ],
        'gpt-4o',
      ),
    ).toBe(3 + 1 + countTextTokens('You are a helpful assistant.', 'gpt-4o') + 3 + 1 + 2 + 3);
  });

  it('adds 1 + name tokens for named messages (and -1 for gpt-3.5-turbo-0301)', () => {
    const named = [{ role: 'user', content: 'hi', name: 'alice' }];
    expect(estimateChatPromptTokens(named, 'gpt-4o')).toBe(8 + 1 + countTextTokens('alice', 'gpt-4o'));
    expect(estimateChatPromptTokens(named, 'gpt-3.5-turbo-0301')).toBe(
      9 - 1 + countTextTokens('alice', 'gpt-3.5-turbo-0301'),
    );
  });

  it('prices media flat and never downloads', () => {
    const prompt: PromptInput = {
      messages: [
        user([
          { type: 'image', detail: 'low' },
          { type: 'image', detail: 'high' },
          { type: 'image' },
          { type: 'audio' },
          { type: 'file' },
        ]),
      ],
    };
    const media = MEDIA_TOKENS.imageLow + 2 * MEDIA_TOKENS.image + MEDIA_TOKENS.audio + MEDIA_TOKENS.file;
    expect(estimatePromptTokens(prompt, 'gpt-4o').tokens).toBe(3 + 1 + media + 3);
    expect(
      estimateChatPromptTokens(
        [
          {
            role: 'user',
            content: [{ type: 'image_url', image_url: { url: 'http://127.0.0.1/never-fetched.png' } }],
          },
        ],
        'gpt-4o',
      ),
    ).toBe(3 + 1 + 255 + 3);
  });

  it('counts every tool, not only the last', () => {
    const tool = (name: string) => ({
      type: 'function',
      function: {
        name,
        description: 'Gets the weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
    });
    const messages = [{ role: 'user', content: 'hi' }];
    const one = estimateChatPromptTokens(messages, 'gpt-4o', [tool('get_weather')]);
    const two = estimateChatPromptTokens(messages, 'gpt-4o', [tool('get_weather'), tool('get_forecast')]);
    expect(one).toBeGreaterThan(8 + 8);
    expect(two - one).toBe(
      one - 8 - 8 + countTextTokens('get_forecast', 'gpt-4o') - countTextTokens('get_weather', 'gpt-4o'),
    );
  });

  it('counts plain texts without message overhead', () => {
    expect(estimatePromptTokens({ texts: ['hello world', 'hello'] }, 'text-embedding-3-small').tokens).toBe(
      3,
    );
  });

  it('extrapolates huge prompts from a counted prefix instead of counting all of them', () => {
    const estimate = estimatePromptTokens(
      { messages: [user('lorem ipsum dolor sit amet '.repeat(100_000))] },
      'gpt-4o',
    );
    expect(estimate.extrapolated).toBe(true);
    expect(estimate.tokens).toBeGreaterThan(400_000);
  });
});

describe('completion counting', () => {
  it('counts generated text, tool calls and extrapolates capped text', () => {
    expect(countGeneratedTokens({ text: 'hello world', chars: 11, toolCallCount: 0 }, 'gpt-4o')).toEqual({
      tokens: 2,
      extrapolated: false,
    });
    expect(
      countGeneratedTokens({ text: 'get_weather{}', chars: 13, toolCallCount: 1 }, 'gpt-4o').tokens,
    ).toBe(countTextTokens('get_weather{}', 'gpt-4o') + 7);
    expect(countGeneratedTokens({ text: 'hello world', chars: 22, toolCallCount: 0 }, 'gpt-4o')).toEqual({
      tokens: 4,
      extrapolated: true,
    });
  });

  it('counts a non-stream response', () => {
    const estimate = countResponseTokens(
      {
        id: 'x',
        model: 'gpt-4o',
        created: 0,
        choices: [
          {
            index: 0,
            text: 'hello world',
            reasoning: 'hello',
            toolCalls: [{ id: 'c', name: 'f', arguments: '{}' }],
            finishReason: 'stop',
          },
        ],
        raw: {},
      },
      'gpt-4o',
    );
    expect(estimate.tokens).toBe(
      2 + 1 + countTextTokens('f', 'gpt-4o') + countTextTokens('{}', 'gpt-4o') + 7,
    );
  });
});

describe('estimatePromptTokens (quick, for reservations)', () => {
  const english =
    'Write one short sentence about load testing an AI gateway, then explain the numbers you would watch.';
  const chinese = '请用一句话介绍负载测试，并说明你会关注哪些指标，例如延迟、吞吐量和内存占用。';

  it('sizes ASCII at 3 characters per token and other characters at 1.25, with the same overheads', () => {
    const prompt: PromptInput = { messages: [user('abcdef')] };
    // 3 per message + role "user" (4 characters → 2) + content (6 → 2) + 3 at the end.
    expect(estimatePromptTokens(prompt, 'gpt-4o', { quick: true })).toEqual({
      tokens: 10,
      extrapolated: true,
    });
    const counter = createQuickTokenCounter();
    expect(counter.count('')).toBe(0);
    expect(counter.count('日本語')).toBe(4);
    expect(counter.count('abc日本語')).toBe(5);
  });

  it('stays at or above the exact count for English and Chinese prompts', () => {
    for (const text of [english, chinese, `${english} ${chinese}`]) {
      for (const model of ['gpt-4o', 'gpt-4']) {
        const prompt: PromptInput = { messages: [{ role: 'system', content: 'Be brief.' }, user(text)] };
        const quick = estimatePromptTokens(prompt, model, { quick: true }).tokens;
        const exact = estimatePromptTokens(prompt, model).tokens;
        expect(quick).toBeGreaterThanOrEqual(exact);
        expect(quick).toBeLessThan(exact * 2);
      }
    }
  });

  it('prices media flat and counts tools like the exact estimate', () => {
    const prompt: PromptInput = {
      messages: [user([{ type: 'image', detail: 'low' }, { type: 'audio' }])],
      tools: [{ name: 'f' }],
    };
    expect(estimatePromptTokens(prompt, 'gpt-4o', { quick: true }).tokens).toBe(
      3 + 2 + MEDIA_TOKENS.imageLow + MEDIA_TOKENS.audio + 3 + 8 + 1,
    );
  });
});
