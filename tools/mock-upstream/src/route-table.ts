import type { IncomingHttpHeaders } from 'node:http';
import {
  handleAnthropicCountTokens,
  handleAnthropicMessages,
} from './anthropic/anthropic-messages-handler.ts';
import { handleAnthropicModel, handleAnthropicModelList } from './anthropic/anthropic-models-handler.ts';
import { resolveCloudRoute } from './cloud-routes.ts';
import {
  handleGeminiGenerateContent,
  handleGeminiStreamGenerateContent,
} from './gemini/gemini-generate-handler.ts';
import {
  handleGeminiBatchEmbedContents,
  handleGeminiCountTokens,
  handleGeminiEmbedContent,
  handleGeminiModel,
  handleGeminiModelList,
} from './gemini/gemini-misc-handlers.ts';
import type { MockRoute, MockRouteHandler } from './mock-request-context.ts';
import {
  handleOpenAiBillingSubscription,
  handleOpenAiBillingUsage,
} from './openai/openai-billing-handler.ts';
import { handleOpenAiChatCompletions } from './openai/openai-chat-handler.ts';
import { handleOpenAiCompletions } from './openai/openai-completions-handler.ts';
import { handleOpenAiEmbeddings } from './openai/openai-embeddings-handler.ts';
import { handleOpenAiImageEdit } from './openai/openai-image-edits-handler.ts';
import { handleOpenAiImageGeneration, handleOpenAiSpeech } from './openai/openai-media-handlers.ts';
import { handleOpenAiModel, handleOpenAiModelList } from './openai/openai-models-handler.ts';
import { handleOpenAiModerations } from './openai/openai-moderations-handler.ts';
import { handleOpenAiRerank } from './openai/openai-rerank-handler.ts';
import { handleOpenAiResponses } from './openai/openai-responses-handler.ts';
import { handleOpenAiTranscription } from './openai/openai-transcription-handler.ts';
import type { MockProtocol } from './protocol-errors.ts';

const route = (protocol: MockProtocol, handler: MockRouteHandler, readsBody = true): MockRoute => ({
  protocol,
  handler,
  readsBody,
});
/** A route whose body is a multipart form (or other non-JSON bytes) the handler parses itself. */
const formRoute = (protocol: MockProtocol, handler: MockRouteHandler): MockRoute => ({
  ...route(protocol, handler),
  rawBody: true,
});

const exactRoutes = new Map<string, MockRoute>([
  ['POST /v1/chat/completions', route('openai', handleOpenAiChatCompletions)],
  ['POST /v1/completions', route('openai', handleOpenAiCompletions)],
  ['POST /v1/embeddings', route('openai', handleOpenAiEmbeddings)],
  ['POST /v1/images/generations', route('openai', handleOpenAiImageGeneration)],
  ['POST /v1/moderations', route('openai', handleOpenAiModerations)],
  ['POST /v1/audio/speech', route('openai', handleOpenAiSpeech)],
  ['POST /v1/rerank', route('openai', handleOpenAiRerank)],
  ['POST /v1/responses', route('openai', handleOpenAiResponses)],
  ['POST /v1/audio/transcriptions', formRoute('openai', handleOpenAiTranscription)],
  ['POST /v1/audio/translations', formRoute('openai', handleOpenAiTranscription)],
  ['POST /v1/images/edits', formRoute('openai', handleOpenAiImageEdit)],
  ['GET /dashboard/billing/subscription', route('openai', handleOpenAiBillingSubscription, false)],
  ['GET /v1/dashboard/billing/subscription', route('openai', handleOpenAiBillingSubscription, false)],
  ['GET /dashboard/billing/usage', route('openai', handleOpenAiBillingUsage, false)],
  ['GET /v1/dashboard/billing/usage', route('openai', handleOpenAiBillingUsage, false)],
  ['POST /v1/messages', route('anthropic', handleAnthropicMessages)],
  ['POST /v1/messages/count_tokens', route('anthropic', handleAnthropicCountTokens)],
  ['GET /v1beta/models', route('gemini', handleGeminiModelList, false)],
]);

const openAiModelList = route('openai', handleOpenAiModelList, false);
const openAiModel = route('openai', handleOpenAiModel, false);
const anthropicModelList = route('anthropic', handleAnthropicModelList, false);
const anthropicModel = route('anthropic', handleAnthropicModel, false);
const geminiModel = route('gemini', handleGeminiModel, false);
const geminiMethods = new Map<string, MockRoute>([
  ['generateContent', route('gemini', handleGeminiGenerateContent)],
  ['streamGenerateContent', route('gemini', handleGeminiStreamGenerateContent)],
  ['embedContent', route('gemini', handleGeminiEmbedContent)],
  ['batchEmbedContents', route('gemini', handleGeminiBatchEmbedContents)],
  ['countTokens', route('gemini', handleGeminiCountTokens)],
]);

/** A route found for a request, with the model named in its path. */
export interface ResolvedRoute {
  readonly route: MockRoute;
  readonly pathModel: string | undefined;
}

/**
 * Finds the route of `method` + `path` (already stripped of the mock prefix and the query).
 * `GET /v1/models` answers in Anthropic's shape when the request carries `anthropic-version`.
 * Gemini methods are served under `/v1beta/models/` and `/v1/models/`.
 */
export function resolveRoute(
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
): ResolvedRoute | undefined {
  const exact = exactRoutes.get(`${method} ${path}`);
  if (exact) return { route: exact, pathModel: undefined };
  const cloud = resolveCloudRoute(method, path);
  if (cloud) return cloud;
  const anthropic = headers['anthropic-version'] !== undefined;
  if (method === 'GET' && path === '/v1/models') {
    return { route: anthropic ? anthropicModelList : openAiModelList, pathModel: undefined };
  }
  const modelsPrefix = path.startsWith('/v1beta/models/')
    ? '/v1beta/models/'
    : path.startsWith('/v1/models/')
      ? '/v1/models/'
      : undefined;
  if (modelsPrefix === undefined) return undefined;
  const rest = path.slice(modelsPrefix.length);
  const colon = rest.lastIndexOf(':');
  if (colon === -1) {
    if (method !== 'GET') return undefined;
    const pathModel = decodeURIComponent(rest);
    if (modelsPrefix === '/v1beta/models/') return { route: geminiModel, pathModel };
    return { route: anthropic ? anthropicModel : openAiModel, pathModel };
  }
  const methodRoute = method === 'POST' ? geminiMethods.get(rest.slice(colon + 1)) : undefined;
  return methodRoute
    ? { route: methodRoute, pathModel: decodeURIComponent(rest.slice(0, colon)) }
    : undefined;
}

/** The protocol whose error shape an unknown path gets. */
export function guessProtocol(path: string, headers: IncomingHttpHeaders): MockProtocol {
  if (path.startsWith('/v1beta/')) return 'gemini';
  return headers['anthropic-version'] !== undefined ? 'anthropic' : 'openai';
}
