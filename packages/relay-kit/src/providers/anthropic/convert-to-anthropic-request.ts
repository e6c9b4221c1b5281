import { type ChannelRuntime, mapChannelModel } from '../../spec/channel-runtime.js';
import { DEFAULT_PROVIDER_SETTINGS, type ProviderSettings } from '../../spec/provider-settings.js';
import type { RelayCall } from '../../spec/relay-call.js';
import { RelayRequestError } from '../../spec/request-error.js';
import type { UpstreamRequest } from '../../spec/upstream-request.js';
import { joinUrl } from '../openai/convert-to-openai-request.js';
import { applyClaudeRules, claudeModelHeaders } from './anthropic-request-rules.js';
import { convertChatToAnthropic } from './convert-chat-to-anthropic.js';

/** Anthropic's API host, used when the channel has no base URL. */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** Sent when the client did not choose an API version. */
export const DEFAULT_ANTHROPIC_VERSION = '2023-06-01';

/** A Messages body ready for an Anthropic-format upstream. */
export interface PreparedAnthropicBody {
  /** The body (a copy; `call.body` is never mutated). */
  readonly body: Record<string, unknown>;
  /** False when the client's bytes can be forwarded as they are. */
  readonly changed: boolean;
  /** The model sent upstream. */
  readonly upstreamModel: string;
  readonly warnings: string[];
}

/**
 * The Messages body for a call of either accepted protocol: native Anthropic bodies are copied,
 * chat completions converted; then channel model mapping, the Claude rules (thinking suffix,
 * default max_tokens, thinking constraints) and the channel's `paramOverride`, shallow-merged last.
 */
export function prepareAnthropicBody(
  call: RelayCall,
  channel: ChannelRuntime,
  settings: ProviderSettings,
): PreparedAnthropicBody {
  const warnings: string[] = [];
  const mapped = mapChannelModel(channel, call.model, call.upstreamModel);
  let body: Record<string, unknown>;
  let changed: boolean;
  if (call.protocol === 'anthropic-messages') {
    body = { ...call.body };
    changed = false;
  } else if (call.protocol === 'openai-chat') {
    body = convertChatToAnthropic(call.body, mapped, warnings);
    changed = true;
  } else {
    throw new RelayRequestError(
      'request:unsupported_protocol',
      `channel type ${channel.type} (Claude) does not support ${call.protocol} requests`,
    );
  }
  const rules = applyClaudeRules(body, mapped, settings, warnings);
  changed ||= rules.changed;
  let upstreamModel = rules.model;
  const override = channel.paramOverride;
  if (override !== undefined && Object.keys(override).length > 0) {
    Object.assign(body, override);
    if (typeof override.model === 'string') upstreamModel = override.model;
    changed = true;
  }
  return { body, changed, upstreamModel, warnings };
}

/**
 * Builds the request for the Anthropic channel (type 14): `{base}/v1/messages`, `x-api-key`,
 * `anthropic-version` (the client's, else 2023-06-01), the client's `anthropic-beta`, the model's
 * headers from `claude.model_headers_settings` (an `anthropic-beta` there is added to the
 * client's), and the channel's header override last (`{api_key}` replaced by the key). The
 * client's bytes are forwarded unchanged when the body needs no change.
 */
export function convertToAnthropicRequest(
  call: RelayCall,
  channel: ChannelRuntime,
  settings: ProviderSettings = DEFAULT_PROVIDER_SETTINGS,
): UpstreamRequest {
  const prepared = prepareAnthropicBody(call, channel, settings);
  const body = prepared.changed
    ? JSON.stringify(prepared.body)
    : (call.rawBody ?? JSON.stringify(prepared.body));
  return {
    url: joinUrl(channel.baseUrl || ANTHROPIC_DEFAULT_BASE_URL, '/v1/messages'),
    method: 'POST',
    headers: buildAnthropicHeaders(call, channel, settings, prepared.upstreamModel),
    body,
    upstreamModel: prepared.upstreamModel,
    streamUsageForced: false,
    warnings: prepared.warnings,
  };
}

/** The headers of an Anthropic request (see {@link convertToAnthropicRequest}). */
export function buildAnthropicHeaders(
  call: RelayCall,
  channel: ChannelRuntime,
  settings: ProviderSettings,
  upstreamModel: string,
): Record<string, string> {
  const clientHeaders = call.protocol === 'anthropic-messages' ? (call.headers ?? {}) : {};
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-api-key': channel.key,
    'anthropic-version': clientHeaders['anthropic-version'] || DEFAULT_ANTHROPIC_VERSION,
  };
  const beta = splitList(clientHeaders['anthropic-beta']);
  const modelHeaders = {
    ...claudeModelHeaders(settings, call.model),
    ...claudeModelHeaders(settings, upstreamModel),
  };
  for (const [name, value] of Object.entries(modelHeaders)) {
    if (name === 'anthropic-beta') beta.push(...splitList(value).filter((item) => !beta.includes(item)));
    else headers[name] = value;
  }
  if (beta.length > 0) headers['anthropic-beta'] = beta.join(',');
  if (channel.headerOverride !== undefined) {
    for (const [name, value] of Object.entries(channel.headerOverride)) {
      headers[name.toLowerCase()] = value.replaceAll('{api_key}', channel.key);
    }
  }
  return headers;
}

function splitList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
