import { azureDeploymentHandler } from './azure/azure-deployment-handler.ts';
import { handleBedrockInvoke } from './bedrock/bedrock-invoke-handler.ts';
import {
  handleGeminiGenerateContent,
  handleGeminiStreamGenerateContent,
} from './gemini/gemini-generate-handler.ts';
import { handleGeminiCountTokens } from './gemini/gemini-misc-handlers.ts';
import type { MockRoute, MockRouteHandler } from './mock-request-context.ts';
import { handleOpenAiChatCompletions } from './openai/openai-chat-handler.ts';
import { handleOpenAiCompletions } from './openai/openai-completions-handler.ts';
import { handleOpenAiEmbeddings } from './openai/openai-embeddings-handler.ts';
import { handleOpenAiImageEdit } from './openai/openai-image-edits-handler.ts';
import { handleOpenAiImageGeneration, handleOpenAiSpeech } from './openai/openai-media-handlers.ts';
import { handleOpenAiResponses } from './openai/openai-responses-handler.ts';
import { handleOpenAiTranscription } from './openai/openai-transcription-handler.ts';
import type { ResolvedRoute } from './route-table.ts';
import { handleGoogleToken } from './vertex/google-token-handler.ts';
import { handleVertexClaude } from './vertex/vertex-claude-handler.ts';

const azure = (handler: MockRouteHandler, rawBody = false): MockRoute => ({
  protocol: 'openai',
  handler: azureDeploymentHandler(handler),
  readsBody: true,
  auth: 'azure',
  rawBody,
});

/** Azure OpenAI deployment tasks (`/openai/deployments/{deployment}/{task}`). */
const azureTasks = new Map<string, MockRoute>([
  ['chat/completions', azure(handleOpenAiChatCompletions)],
  ['completions', azure(handleOpenAiCompletions)],
  ['embeddings', azure(handleOpenAiEmbeddings)],
  ['images/generations', azure(handleOpenAiImageGeneration)],
  ['images/edits', azure(handleOpenAiImageEdit, true)],
  ['audio/speech', azure(handleOpenAiSpeech)],
  ['audio/transcriptions', azure(handleOpenAiTranscription, true)],
  ['audio/translations', azure(handleOpenAiTranscription, true)],
]);
const azureResponses = azure(handleOpenAiResponses);

const vertex = (protocol: 'gemini' | 'anthropic', handler: MockRouteHandler): MockRoute => ({
  protocol,
  handler,
  readsBody: true,
  auth: 'google-oauth',
});
const vertexMethods = new Map<string, MockRoute>([
  ['google:generateContent', vertex('gemini', handleGeminiGenerateContent)],
  ['google:streamGenerateContent', vertex('gemini', handleGeminiStreamGenerateContent)],
  ['google:countTokens', vertex('gemini', handleGeminiCountTokens)],
  ['anthropic:rawPredict', vertex('anthropic', handleVertexClaude)],
  ['anthropic:streamRawPredict', vertex('anthropic', handleVertexClaude)],
]);
const vertexPath =
  /^\/v1(?:beta1)?\/projects\/[^/]+\/locations\/[a-z0-9-]+\/publishers\/(google|anthropic)\/models\/([^/:]+):([A-Za-z]+)$/;

const bedrockInvoke: MockRoute = {
  protocol: 'bedrock',
  handler: handleBedrockInvoke,
  readsBody: true,
  auth: 'aws-sigv4',
};
const bedrockPath = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/;

const googleToken: MockRoute = {
  protocol: 'gemini',
  handler: handleGoogleToken,
  readsBody: true,
  auth: 'none',
  rawBody: true,
};

/**
 * Routes of the cloud platforms that resell the models: Azure OpenAI deployments
 * (`/openai/deployments/{deployment}/{task}`, `/openai/v1/responses`), Vertex AI publisher models
 * (`/v1/projects/{p}/locations/{r}/publishers/{google|anthropic}/models/{m}:{method}`), the Google
 * OAuth token stand-in (`POST /token`) and Bedrock runtime (`/model/{id}/invoke[-with-response-stream]`).
 * Only POST routes; `undefined` when the path is none of them.
 */
export function resolveCloudRoute(method: string, path: string): ResolvedRoute | undefined {
  if (method !== 'POST') return undefined;
  if (path === '/token') return { route: googleToken, pathModel: undefined };
  if (path === '/openai/v1/responses') return { route: azureResponses, pathModel: undefined };
  if (path.startsWith('/openai/deployments/')) {
    const rest = path.slice('/openai/deployments/'.length);
    const slash = rest.indexOf('/');
    const route = slash > 0 ? azureTasks.get(rest.slice(slash + 1)) : undefined;
    return route ? { route, pathModel: decodeURIComponent(rest.slice(0, slash)) } : undefined;
  }
  const vertexMatch = vertexPath.exec(path);
  if (vertexMatch) {
    const route = vertexMethods.get(`${vertexMatch[1]}:${vertexMatch[3]}`);
    return route ? { route, pathModel: decodeURIComponent(vertexMatch[2]!) } : undefined;
  }
  const bedrockMatch = bedrockPath.exec(path);
  if (bedrockMatch) return { route: bedrockInvoke, pathModel: decodeURIComponent(bedrockMatch[1]!) };
  return undefined;
}
