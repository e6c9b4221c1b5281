import { type ChannelRuntime, mapChannelModel } from '../../spec/channel-runtime.js';
import {
  DEFAULT_PROVIDER_SETTINGS,
  type ProviderSettings,
  settingForModel,
} from '../../spec/provider-settings.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { UpstreamRequest } from '../../spec/upstream-request.js';
import { joinUrl } from '../openai/convert-to-openai-request.js';
import { applyHeaderOverride, GEMINI_DEFAULT_BASE_URL } from './convert-to-gemini-request.js';
import { isRecord } from './gemini-api.js';

/**
 * A Gemini call of another method than generation (`countTokens`, `embedContent`,
 * `batchEmbedContents`): `{base}/{version}/models/{model}:{method}` with the client's body —
 * its bytes as they came unless the channel maps the model, when the `model` fields inside it
 * (`requests[].model`, `generateContentRequest.model`) name the upstream model too.
 */
export function buildGeminiMethodRequest(
  call: RelayCall,
  channel: ChannelRuntime,
  method: string,
  settings: ProviderSettings = DEFAULT_PROVIDER_SETTINGS,
): UpstreamRequest {
  const upstreamModel = mapChannelModel(channel, call.model, call.upstreamModel);
  const version = settingForModel(settings.gemini.versionSettings, upstreamModel, 'v1beta');
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-goog-api-key': channel.key,
  };
  applyHeaderOverride(headers, channel);
  const mapped = upstreamModel !== call.model;
  return {
    url: joinUrl(
      channel.baseUrl || GEMINI_DEFAULT_BASE_URL,
      `/${version}/models/${encodeURIComponent(upstreamModel)}:${method}`,
    ),
    method: 'POST',
    headers,
    body:
      mapped || call.rawBody === undefined
        ? JSON.stringify(renameModel(call.body, upstreamModel))
        : call.rawBody,
    upstreamModel,
    streamUsageForced: false,
    warnings: [],
  };
}

function renameModel(body: Readonly<Record<string, unknown>>, model: string): Record<string, unknown> {
  const name = `models/${model}`;
  const copy: Record<string, unknown> = { ...body };
  if (Array.isArray(body.requests)) {
    copy.requests = body.requests.map((request: unknown) =>
      isRecord(request) && request.model !== undefined ? { ...request, model: name } : request,
    );
  }
  if (isRecord(body.generateContentRequest) && body.generateContentRequest.model !== undefined) {
    copy.generateContentRequest = { ...body.generateContentRequest, model: name };
  }
  return copy;
}

/** The method of a Gemini call's path (`…/models/x:countTokens` → `countTokens`). */
export function geminiMethodOf(call: RelayCall): string {
  const path = call.path ?? '';
  return path.slice(path.lastIndexOf(':') + 1).replace(/\/$/, '');
}
