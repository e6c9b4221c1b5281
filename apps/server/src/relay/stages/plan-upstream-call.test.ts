import {
  geminiEmbeddingsCodec,
  getProviderAdapter,
  openAIResponsesCodec,
  type ProtocolCodec,
  type RelayCall,
} from '@switchyard/relay-kit';
import { describe, expect, it } from 'vitest';
import { planUpstreamCall, WEB_SEARCH_DROPPED } from './plan-upstream-call.ts';

/** Conversions as run-attempts makes them, without caching. */
function conversionsOf(codec: ProtocolCodec, call: RelayCall) {
  const chatCall = () => codec.toChatCall!(call);
  return {
    chatCall,
    chatCallWithoutWebSearch: () => {
      const { web_search_options: _dropped, ...body } = chatCall().body;
      return { ...chatCall(), body };
    },
    embeddingsCall: () => codec.toEmbeddingsCall!(call),
  };
}

describe('planUpstreamCall', () => {
  const responses = openAIResponsesCodec.parseRequest({
    json: { model: 'm', input: 'news?', tools: [{ type: 'web_search' }] },
  });

  it('keeps a web search request for adapters with a search tool of their own', () => {
    const plan = planUpstreamCall(
      getProviderAdapter(14)!,
      responses,
      openAIResponsesCodec,
      undefined,
      conversionsOf(openAIResponsesCodec, responses),
    );
    expect(plan).toMatchObject({ mode: 'convert', call: { body: { web_search_options: {} } } });
    expect(plan?.mode === 'convert' && plan.note).toBeUndefined();
  });

  it('drops it, with a note, for the others', () => {
    const plan = planUpstreamCall(
      getProviderAdapter(43)!,
      responses,
      openAIResponsesCodec,
      undefined,
      conversionsOf(openAIResponsesCodec, responses),
    );
    expect(plan?.mode).toBe('convert');
    expect(plan?.call.body.web_search_options).toBeUndefined();
    expect(plan?.mode === 'convert' && plan.note).toBe(WEB_SEARCH_DROPPED);
  });

  it('serves Gemini embeddings natively on Gemini, through /v1/embeddings on OpenAI, not on DeepSeek', () => {
    const call = geminiEmbeddingsCodec.parseRequest({
      path: '/v1beta/models/e:embedContent',
      json: { content: { parts: [{ text: 'a' }] } },
    });
    const conversions = conversionsOf(geminiEmbeddingsCodec, call);
    const plan = (type: number) =>
      planUpstreamCall(getProviderAdapter(type)!, call, geminiEmbeddingsCodec, undefined, conversions);
    expect(plan(24)).toEqual({ mode: 'passthrough', call });
    expect(plan(1)).toMatchObject({
      mode: 'convert',
      call: { protocol: 'openai-embeddings', path: '/v1/embeddings' },
    });
    expect(plan(43)).toBeNull();
  });
});
