import { type ChannelRuntime, mapChannelModel } from '../../spec/channel-runtime.js';
import type { PassthroughTap, PassthroughTapOptions } from '../../spec/passthrough-tap.js';
import type { Protocol } from '../../spec/protocol.js';
import type { ProviderAdapter } from '../../spec/provider-adapter.js';
import { DEFAULT_PROVIDER_SETTINGS, type ProviderSettings } from '../../spec/provider-settings.js';
import type { RelayCall } from '../../spec/relay-call.js';
import { RelayRequestError } from '../../spec/request-error.js';
import type { SseEvent } from '../../spec/sse-event.js';
import type { UnifiedResponse } from '../../spec/unified-response.js';
import type { UpstreamRequest } from '../../spec/upstream-request.js';
import type { Usage } from '../../spec/usage.js';
import { readAnthropicUsage } from '../anthropic/anthropic-adapter.js';
import { createAnthropicUsageTap } from '../anthropic/anthropic-usage-tap.js';
import { convertAnthropicResponse } from '../anthropic/convert-anthropic-response.js';
import { convertGeminiResponse } from '../gemini/convert-gemini-response.js';
import { applyHeaderOverride, buildGeminiBody } from '../gemini/convert-to-gemini-request.js';
import { readGeminiUsage } from '../gemini/gemini-adapter.js';
import { parseGeminiError } from '../gemini/gemini-error.js';
import { createGeminiUsageTap } from '../gemini/gemini-usage-tap.js';
import { joinUrl } from '../openai/convert-to-openai-request.js';
import { createVertexTokenSource, type VertexTokenSource } from './vertex-access-token.js';
import { buildVertexClaudeRequest } from './vertex-claude-request.js';
import { parseServiceAccountKey, resolveVertexRegion, vertexHost } from './vertex-credentials.js';
import { createVertexStreamTransformer, isAnthropicShaped } from './vertex-response-readers.js';

const VERTEX_AUTH = Symbol.for('switchyard.relay-kit.vertex-auth');

/** What `prepareChannel` adds to a Vertex channel (under a symbol key, so it is never serialised). */
export interface VertexAuth {
  readonly accessToken: string;
  readonly projectId: string;
}

/** The access token and project `prepareChannel` attached to a channel, if any. */
export function readVertexAuth(channel: ChannelRuntime): VertexAuth | undefined {
  return (channel as { [VERTEX_AUTH]?: VertexAuth })[VERTEX_AUTH];
}

/**
 * Creates the Vertex AI adapter (channel type 41). Key = service-account JSON; `other` = a region
 * or `{"default": region, "<model>": region}`. `prepareChannel` exchanges the key for an access
 * token (cached per key, see `createVertexTokenSource`); `buildRequest` then targets
 * - Gemini models: `https://{region}-aiplatform.googleapis.com/v1/projects/{project}/locations/{region}/publishers/google/models/{model}:generateContent`
 *   (`:streamGenerateContent?alt=sse`), body as for Gemini channels (native pass-through or converted);
 * - Claude models (name contains `claude`): `…/publishers/anthropic/models/{model}:rawPredict`
 *   (`:streamRawPredict`) with an Anthropic Messages body (see `buildVertexClaudeRequest`).
 * Region `global` uses host `aiplatform.googleapis.com`; a channel base URL replaces the host.
 * Only `gemini` is native: Anthropic clients reach Claude through the chat hub.
 */
export function createVertexAdapter(tokens: VertexTokenSource = createVertexTokenSource()): ProviderAdapter {
  return {
    channelType: 41,
    name: 'vertex',
    nativeProtocols: ['gemini'],
    convertibleProtocols: ['openai-chat'],
    webSearch: true,
    inlineRemoteImages: true,
    async prepareChannel(channel, fetch) {
      const account = parseServiceAccountKey(channel.key);
      const accessToken = await tokens.getAccessToken(account, fetch);
      return { ...channel, [VERTEX_AUTH]: { accessToken, projectId: account.projectId } } as ChannelRuntime;
    },
    buildRequest(
      call: RelayCall,
      channel: ChannelRuntime,
      settings: ProviderSettings = DEFAULT_PROVIDER_SETTINGS,
    ): UpstreamRequest {
      const auth = readVertexAuth(channel);
      if (auth === undefined)
        throw new Error('Vertex AI channels need prepareChannel() before buildRequest()');
      const mapped = mapChannelModel(channel, call.model, call.upstreamModel);
      const region = resolveVertexRegion(channel, mapped, call.model);
      const base = channel.baseUrl || `https://${vertexHost(region)}`;
      const location = `/v1/projects/${encodeURIComponent(auth.projectId)}/locations/${region}/publishers`;
      if (/claude/i.test(mapped)) {
        const claude = buildVertexClaudeRequest(call, channel, settings, auth.accessToken);
        const method = call.stream ? 'streamRawPredict' : 'rawPredict';
        return {
          url: joinUrl(
            base,
            `${location}/anthropic/models/${encodeURIComponent(claude.upstreamModel).replace('%40', '@')}:${method}`,
          ),
          method: 'POST',
          headers: claude.headers,
          body: claude.body,
          upstreamModel: claude.upstreamModel,
          streamUsageForced: false,
          warnings: claude.warnings,
        };
      }
      if (call.protocol === 'anthropic-messages') {
        throw new RelayRequestError(
          'request:unsupported_protocol',
          'Anthropic requests can only reach Claude models on Vertex AI',
        );
      }
      const warnings: string[] = [];
      const body = buildGeminiBody(call, channel, settings, warnings);
      const method = call.stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        authorization: `Bearer ${auth.accessToken}`,
      };
      applyHeaderOverride(headers, { ...channel, key: auth.accessToken });
      return {
        url: joinUrl(base, `${location}/google/models/${encodeURIComponent(mapped)}:${method}`),
        method: 'POST',
        headers,
        body,
        upstreamModel: mapped,
        streamUsageForced: false,
        warnings,
      };
    },
    createPassthroughTap(options?: PassthroughTapOptions): PassthroughTap {
      return options?.protocol === 'anthropic-messages'
        ? createAnthropicUsageTap(options)
        : createGeminiUsageTap(options);
    },
    toStreamParts: createVertexStreamTransformer,
    toResponse(body: unknown, call: RelayCall): UnifiedResponse {
      return isAnthropicShaped(body)
        ? convertAnthropicResponse(body, call)
        : convertGeminiResponse(body, call);
    },
    readUsage(source: SseEvent | unknown, protocol?: Protocol): Usage | undefined {
      if (protocol === 'anthropic-messages') return readAnthropicUsage(source);
      if (protocol === 'gemini') return readGeminiUsage(source);
      return readGeminiUsage(source) ?? readAnthropicUsage(source);
    },
    parseError: parseGeminiError,
  };
}

/** The shared Vertex AI adapter (one token cache for the process). */
export const vertexAdapter: ProviderAdapter = createVertexAdapter();
