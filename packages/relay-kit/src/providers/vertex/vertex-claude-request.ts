import type { ChannelRuntime } from '../../spec/channel-runtime.js';
import type { ProviderSettings } from '../../spec/provider-settings.js';
import type { RelayCall } from '../../spec/relay-call.js';
import { RelayRequestError } from '../../spec/request-error.js';
import { buildAnthropicHeaders, prepareAnthropicBody } from '../anthropic/convert-to-anthropic-request.js';

/** The `anthropic_version` Vertex AI expects in Claude bodies. */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';
const DATED_MODEL = /^(claude-[a-z0-9.-]+?)-(\d{8})$/;
/** Vertex names that differ from Anthropic's beyond the `@date` form. */
const VERTEX_CLAUDE_NAMES: Readonly<Record<string, string>> = {
  'claude-3-5-sonnet-20241022': 'claude-3-5-sonnet-v2@20241022',
};

/** A Claude model as Vertex AI names it: `claude-3-5-haiku-20241022` → `claude-3-5-haiku@20241022`. */
export function toVertexClaudeModel(model: string): string {
  const known = VERTEX_CLAUDE_NAMES[model];
  if (known !== undefined) return known;
  const dated = DATED_MODEL.exec(model);
  return dated === null ? model : `${dated[1]}@${dated[2]}`;
}

/** Body, headers and model of a Claude call on Vertex AI (`rawPredict` / `streamRawPredict`). */
export interface VertexClaudeRequest {
  readonly body: string;
  readonly headers: Record<string, string>;
  readonly upstreamModel: string;
  readonly warnings: string[];
}

/**
 * Builds a Claude request for Vertex AI with the Anthropic adapter's conversion (chat → Messages,
 * Claude rules, parameter override): the body loses `model` (it is in the URL) and gains
 * `anthropic_version: "vertex-2023-10-16"`; headers are the Anthropic ones (model headers,
 * `anthropic-beta`, header override with `{api_key}` = the access token) with
 * `Authorization: Bearer` instead of `x-api-key` / `anthropic-version`.
 */
export function buildVertexClaudeRequest(
  call: RelayCall,
  channel: ChannelRuntime,
  settings: ProviderSettings,
  accessToken: string,
): VertexClaudeRequest {
  if (call.protocol !== 'openai-chat' && call.protocol !== 'anthropic-messages') {
    throw new RelayRequestError(
      'request:unsupported_protocol',
      `Claude models on Vertex AI do not accept ${call.protocol} requests`,
    );
  }
  const prepared = prepareAnthropicBody(call, channel, settings);
  const { model: _model, ...rest } = prepared.body;
  const body = { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest };
  const headers = buildAnthropicHeaders(
    call,
    { ...channel, key: accessToken },
    settings,
    prepared.upstreamModel,
  );
  delete headers['x-api-key'];
  delete headers['anthropic-version'];
  headers.authorization = `Bearer ${accessToken}`;
  return {
    body: JSON.stringify(body),
    headers,
    upstreamModel: toVertexClaudeModel(prepared.upstreamModel),
    warnings: prepared.warnings,
  };
}
