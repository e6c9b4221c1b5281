import { type ChannelRuntime, mapChannelModel } from '../../spec/channel-runtime.js';
import {
  DEFAULT_PROVIDER_SETTINGS,
  type ProviderSettings,
  settingForModel,
} from '../../spec/provider-settings.js';
import type { RelayCall } from '../../spec/relay-call.js';
import { RelayRequestError } from '../../spec/request-error.js';
import type { UpstreamRequest } from '../../spec/upstream-request.js';
import { joinUrl } from '../openai/convert-to-openai-request.js';
import { convertChatMessagesToGemini } from './convert-chat-messages-to-gemini.js';
import {
  cleanGeminiSchema,
  convertChatToolsToGemini,
  convertToolChoiceToGemini,
} from './convert-chat-tools-to-gemini.js';
import { GEMINI_HARM_CATEGORIES, isRecord } from './gemini-api.js';

/** Google AI Studio's API host (channel type 24 default). */
export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

/**
 * Thinking budgets for OpenAI `reasoning_effort` (`thinkingConfig.thinkingBudget`); `none`
 * turns thinking off. Thought summaries are requested so reasoning reaches the client.
 */
export const THINKING_BUDGET_BY_EFFORT: Readonly<Record<string, number>> = {
  none: 0,
  minimal: 128,
  low: 1024,
  medium: 8192,
  high: 24576,
};

/**
 * Builds the request for a Google AI Studio (Gemini API) upstream:
 * `{base}/{version}/models/{model}:generateContent`, or `:streamGenerateContent?alt=sse` for
 * streams (always SSE upstream, whatever the client asked), with `x-goog-api-key`. The version
 * comes from `gemini.version_settings` for the upstream model. See {@link buildGeminiBody}.
 */
export function convertToGeminiRequest(
  call: RelayCall,
  channel: ChannelRuntime,
  settings: ProviderSettings = DEFAULT_PROVIDER_SETTINGS,
): UpstreamRequest {
  const upstreamModel = mapChannelModel(channel, call.model, call.upstreamModel);
  const warnings: string[] = [];
  const body = buildGeminiBody(call, channel, settings, warnings);
  const version = settingForModel(settings.gemini.versionSettings, upstreamModel, 'v1beta');
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-goog-api-key': channel.key,
  };
  applyHeaderOverride(headers, channel);
  return {
    url: joinUrl(
      channel.baseUrl || GEMINI_DEFAULT_BASE_URL,
      `/${version}/${geminiModelPath(upstreamModel, call.stream)}`,
    ),
    method: 'POST',
    headers,
    body,
    upstreamModel,
    streamUsageForced: false,
    warnings,
  };
}

/** `models/{model}:generateContent` or `models/{model}:streamGenerateContent?alt=sse`. */
export function geminiModelPath(model: string, stream: boolean): string {
  return `models/${encodeURIComponent(model)}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
}

/** Applies the channel's header override (`{api_key}` replaced with the channel key). */
export function applyHeaderOverride(headers: Record<string, string>, channel: ChannelRuntime): void {
  if (channel.headerOverride === undefined) return;
  for (const [name, value] of Object.entries(channel.headerOverride)) {
    headers[name.toLowerCase()] = value.replaceAll('{api_key}', channel.key);
  }
}

/**
 * The Gemini request body for a call. A `gemini` call is forwarded byte-exact unless the channel
 * has a parameter override (shallow-merged, then re-serialised); the model lives in the URL, so
 * model mapping never touches the body. An `openai-chat` call is converted
 * ({@link convertChatBodyToGemini}), then the override is merged.
 */
export function buildGeminiBody(
  call: RelayCall,
  channel: ChannelRuntime,
  settings: ProviderSettings,
  warnings: string[],
): string | Uint8Array {
  const override = channel.paramOverride;
  const hasOverride = override !== undefined && Object.keys(override).length > 0;
  if (call.protocol === 'gemini') {
    if (!hasOverride) return call.rawBody ?? JSON.stringify(call.body);
    return JSON.stringify({ ...call.body, ...override });
  }
  if (call.protocol !== 'openai-chat') {
    throw new RelayRequestError(
      'request:unsupported_protocol',
      `Gemini channels do not support ${call.protocol} requests`,
    );
  }
  const body = convertChatBodyToGemini(call.body, settings, warnings);
  return JSON.stringify(hasOverride ? { ...body, ...override } : body);
}

/**
 * Converts an OpenAI chat completions body into a Gemini `generateContent` body (§3.9): messages
 * (see `convertChatMessagesToGemini`), tools and `tool_choice`, `response_format` →
 * `responseMimeType` / `responseSchema`, sampling fields → `generationConfig`,
 * `reasoning_effort` → `thinkingConfig` ({@link THINKING_BUDGET_BY_EFFORT}), and a safety setting
 * for every harm category from `gemini.safety_settings` (its `default` for the others).
 */
export function convertChatBodyToGemini(
  body: Readonly<Record<string, unknown>>,
  settings: ProviderSettings,
  warnings: string[],
): Record<string, unknown> {
  const { contents, systemInstruction } = convertChatMessagesToGemini(body.messages, warnings);
  const out: Record<string, unknown> = { contents };
  if (systemInstruction !== undefined) out.systemInstruction = systemInstruction;
  const tools = convertChatToolsToGemini(body.tools, warnings);
  // Chat's web search request is Gemini's Google Search grounding.
  if (isRecord(body.web_search_options) && !tools.some((tool) => 'googleSearch' in tool)) {
    tools.push({ googleSearch: {} });
  }
  if (tools.length > 0) out.tools = tools;
  const toolConfig = convertToolChoiceToGemini(body.tool_choice);
  if (toolConfig !== undefined && tools.length > 0) out.toolConfig = toolConfig;
  out.safetySettings = GEMINI_HARM_CATEGORIES.map((category) => ({
    category,
    threshold: settingForModel(settings.gemini.safetySettings, category, 'OFF'),
  }));
  const generationConfig = convertGenerationConfig(body, warnings);
  if (Object.keys(generationConfig).length > 0) out.generationConfig = generationConfig;
  return out;
}

function convertGenerationConfig(
  body: Readonly<Record<string, unknown>>,
  warnings: string[],
): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  const copy = (from: string, to: string) => {
    const value = body[from];
    if (typeof value === 'number') config[to] = value;
  };
  copy('temperature', 'temperature');
  copy('top_p', 'topP');
  copy('top_k', 'topK');
  copy('seed', 'seed');
  copy('presence_penalty', 'presencePenalty');
  copy('frequency_penalty', 'frequencyPenalty');
  copy('max_tokens', 'maxOutputTokens');
  copy('max_completion_tokens', 'maxOutputTokens');
  if (typeof body.n === 'number' && body.n > 1) config.candidateCount = body.n;
  const stop = body.stop;
  if (typeof stop === 'string' && stop !== '') config.stopSequences = [stop];
  else if (Array.isArray(stop)) config.stopSequences = stop.filter((item) => typeof item === 'string');
  const format = body.response_format;
  if (isRecord(format)) {
    if (format.type === 'json_object') {
      config.responseMimeType = 'application/json';
    } else if (format.type === 'json_schema') {
      config.responseMimeType = 'application/json';
      const schema = isRecord(format.json_schema) ? cleanGeminiSchema(format.json_schema.schema) : undefined;
      if (schema !== undefined) config.responseSchema = schema;
    }
  }
  const effort = body.reasoning_effort;
  if (typeof effort === 'string') {
    const budget = THINKING_BUDGET_BY_EFFORT[effort];
    if (budget === undefined) warnings.push(`reasoning_effort "${effort}" is not known and was ignored`);
    else
      config.thinkingConfig =
        budget === 0 ? { thinkingBudget: 0 } : { thinkingBudget: budget, includeThoughts: true };
  }
  return config;
}
