import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { embedMany, generateText, jsonSchema, type LanguageModel, stepCountIs, streamText, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settledLogs } from '../../relay/relay-support.ts';
import {
  AGENT_MODELS,
  type AgentChannelKind,
  type AgentGateway,
  catalogueQuota,
  EMBEDDING_MODELS,
  expectAgentBilled,
  startAgentGateway,
} from './agent-support.ts';
import { toolResultsIn } from './tool-results.ts';

/**
 * The Vercel AI SDK (`ai` 6 with its OpenAI, Anthropic and Google providers) pointed at the
 * gateway by `baseURL`, as docs/agents.md says. Each case runs one tool round trip: the mock
 * calls the weather tool (city "mock"), the SDK runs it, the next call carries its result.
 */
const PROMPT = 'What is the weather?';
const weather = tool({
  description: 'The weather in a city.',
  inputSchema: jsonSchema<{ city: string }>({
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
  }),
  execute: async ({ city }) => `sunny in ${city}`,
});

type ProviderName = 'openai.responses' | 'openai.chat' | 'anthropic' | 'google';

describe('the Vercel AI SDK through the gateway', () => {
  let gateway: AgentGateway;
  beforeAll(async () => {
    gateway = await startAgentGateway();
  });
  afterAll(async () => gateway.close());

  function modelOf(provider: ProviderName, model: string): LanguageModel {
    const apiKey = gateway.key;
    const base = gateway.f.baseUrl;
    switch (provider) {
      case 'openai.responses':
        return createOpenAI({ apiKey, baseURL: `${base}/v1` }).responses(model);
      case 'openai.chat':
        return createOpenAI({ apiKey, baseURL: `${base}/v1` }).chat(model);
      case 'anthropic':
        return createAnthropic({ apiKey, baseURL: `${base}/v1` })(model);
      case 'google':
        return createGoogleGenerativeAI({ apiKey, baseURL: `${base}/v1beta` })(model);
    }
  }

  const cases: Array<[ProviderName, AgentChannelKind]> = [
    ['openai.responses', 'openai'],
    ['openai.chat', 'openai'],
    ['openai.chat', 'anthropic'],
    ['anthropic', 'anthropic'],
    ['anthropic', 'gemini'],
    ['google', 'gemini'],
    ['google', 'openai'],
  ];

  describe.each(cases)('%s against the %s channel', (provider, channel) => {
    const model = AGENT_MODELS[channel];

    it('generateText completes a tool round trip, billed exactly', async () => {
      let steps: ReadonlyArray<{ toolCalls: unknown[]; toolResults: unknown[] }> = [];
      let text = '';
      const calls = await expectAgentBilled(gateway, { model, channel }, async () => {
        const result = await generateText({
          model: modelOf(provider, model),
          prompt: PROMPT,
          tools: { weather },
          stopWhen: stepCountIs(3),
          maxRetries: 0,
        });
        steps = result.steps;
        text = result.text;
        const usage = result.totalUsage;
        return {
          calls: result.steps.length,
          prompt: usage.inputTokens ?? -1,
          completion: usage.outputTokens ?? -1,
        };
      });
      expect(steps).toHaveLength(2);
      expect(steps[0]?.toolCalls).toMatchObject([{ toolName: 'weather', input: { city: 'mock' } }]);
      expect(steps[0]?.toolResults).toMatchObject([{ toolName: 'weather', output: 'sunny in mock' }]);
      expect(text).toBe(`Hello from mock ${model}: ${PROMPT}`);
      expect(toolResultsIn(calls[1]!).join()).toContain('sunny in mock');
    });

    it('streamText streams the answer after the tool round trip, billed exactly', async () => {
      const deltas: string[] = [];
      await expectAgentBilled(gateway, { model, channel }, async () => {
        const result = streamText({
          model: modelOf(provider, model),
          prompt: PROMPT,
          tools: { weather },
          stopWhen: stepCountIs(3),
          maxRetries: 0,
          onError: ({ error }) => {
            throw error;
          },
        });
        for await (const delta of result.textStream) deltas.push(delta);
        const usage = await result.totalUsage;
        const steps = await result.steps;
        expect(steps[0]?.toolResults).toMatchObject([{ toolName: 'weather', output: 'sunny in mock' }]);
        return { calls: steps.length, prompt: usage.inputTokens ?? -1, completion: usage.outputTokens ?? -1 };
      });
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join('')).toBe(`Hello from mock ${model}: ${PROMPT}`);
    });
  });

  describe.each([
    ['openai', 'openai'],
    ['google', 'gemini'],
    ['google', 'openai'],
  ] as const)('embedMany through %s against the %s channel', (provider, channel) => {
    it('returns one vector per value and logs one priced call', async () => {
      const model = EMBEDDING_MODELS[channel];
      const base = gateway.f.baseUrl;
      const embeddingModel =
        provider === 'openai'
          ? createOpenAI({ apiKey: gateway.key, baseURL: `${base}/v1` }).embedding(model)
          : createGoogleGenerativeAI({ apiKey: gateway.key, baseURL: `${base}/v1beta` }).embedding(model);
      const seen = (await settledLogs(gateway.f)).length;
      const result = await embedMany({
        model: embeddingModel,
        values: ['one two', 'three four five'],
        maxRetries: 0,
      });
      expect(result.embeddings).toHaveLength(2);
      expect(result.embeddings[0]!.length).toBeGreaterThan(0);
      const rows = (await settledLogs(gateway.f)).slice(seen);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ model_name: model, channel_id: gateway.channelIds[channel] });
      expect(rows[0]!.prompt_tokens).toBeGreaterThan(0);
      if (provider === 'openai') expect(rows[0]!.prompt_tokens).toBe(result.usage.tokens);
      expect(rows[0]!.quota).toBe(catalogueQuota(model, rows[0]!));
    });
  });
});
