import { type ChannelRuntime, mapChannelModel } from '../../spec/channel-runtime.js';
import type { RelayCall } from '../../spec/relay-call.js';
import { RelayRequestError } from '../../spec/request-error.js';
import type { UpstreamRequest } from '../../spec/upstream-request.js';
import type { OpenAIFamilyConfig } from './openai-config.js';
import { buildMultipartBody, isMultipartCall } from './openai-multipart-request.js';
import { buildOpenAIHeaders, buildOpenAIUrl, resolveOpenAIPath } from './openai-request-target.js';

export { buildOpenAIHeaders, joinUrl } from './openai-request-target.js';

const encoder = new TextEncoder();
const STREAM_USAGE_FIELD = '"stream_options":{"include_usage":true},';
const STREAM_USAGE_BYTES = encoder.encode(STREAM_USAGE_FIELD);
const REASONING_MODEL = /^(?:o\d|gpt-5)/;
const EFFORT_SUFFIX = /^([\w./:-]+?)-(minimal|low|medium|high)$/;

/**
 * Builds the upstream request for an OpenAI-format upstream.
 *
 * - URL: the channel's base URL (or the config default) + the protocol's path; a base URL that
 *   already ends in `/v1` does not produce `/v1/v1`.
 * - Auth per config (`Authorization: Bearer` for OpenAI), `OpenAI-Organization` when set.
 * - Body changes, in order: channel model mapping; `stream_options.include_usage: true` forced
 *   on streams (recorded in `streamUsageForced` when the client did not ask for it); reasoning
 *   model rules; dropped/renamed parameters; the channel's `paramOverride`, shallow-merged last.
 * - When nothing changes the client's bytes are forwarded as they are; when only the stream usage
 *   flag is added, it is spliced into the client's bytes (no re-serialisation of large prompts).
 */
export function convertToOpenAIRequest(
  call: RelayCall,
  channel: ChannelRuntime,
  config: OpenAIFamilyConfig,
): UpstreamRequest {
  const path = config.paths[call.protocol];
  if (path === undefined) {
    throw new RelayRequestError(
      'request:unsupported_protocol',
      `channel type ${config.channelType} (${config.name}) does not support ${call.protocol} requests`,
    );
  }
  const upstreamModel = mapChannelModel(channel, call.model, call.upstreamModel);
  const resolvedPath = resolveOpenAIPath(path, call);
  if (isMultipartCall(call)) {
    const override = channel.paramOverride;
    const finalModel = typeof override?.model === 'string' ? override.model : upstreamModel;
    const multipart = buildMultipartBody(call, finalModel, override);
    const headers = buildOpenAIHeaders(channel, config);
    headers['content-type'] = multipart.contentType;
    return {
      url: buildOpenAIUrl(call, channel, config, resolvedPath, finalModel),
      method: 'POST',
      headers,
      body: multipart.body,
      upstreamModel: finalModel,
      streamUsageForced: false,
      warnings: [],
    };
  }
  const warnings: string[] = [];
  const original = call.body;
  let body: Record<string, unknown> | undefined;
  const edit = () => {
    body ??= { ...original };
    return body;
  };

  if (original.model !== upstreamModel) edit().model = upstreamModel;

  let streamUsageForced = false;
  let spliceStreamUsage = false;
  const streamsUsage =
    call.stream && (call.protocol === 'openai-chat' || call.protocol === 'openai-completions');
  if (streamsUsage && config.streamOptions === 'force') {
    const current = original.stream_options;
    const hasUsage = isRecord(current) && current.include_usage === true;
    if (!hasUsage) {
      streamUsageForced = !call.includeUsage;
      if (!Object.hasOwn(original, 'stream_options')) spliceStreamUsage = true;
      else edit().stream_options = { ...(isRecord(current) ? current : {}), include_usage: true };
    }
  } else if (streamsUsage && config.streamOptions === 'strip' && Object.hasOwn(original, 'stream_options')) {
    delete edit().stream_options;
  }

  let finalModel = upstreamModel;
  if (config.reasoningModelRules === true && call.protocol === 'openai-chat') {
    finalModel = applyReasoningModelRules(
      original,
      upstreamModel,
      config.reasoningModelPattern ?? REASONING_MODEL,
      edit,
      warnings,
    );
  }

  for (const name of config.dropParameters ?? []) {
    if (Object.hasOwn(original, name)) {
      delete edit()[name];
      warnings.push(`parameter "${name}" is not supported by ${config.name} and was removed`);
    }
  }
  for (const [from, to] of Object.entries(config.renameParameters ?? {})) {
    if (Object.hasOwn(original, from)) {
      const target = edit();
      if (!Object.hasOwn(target, to)) target[to] = target[from];
      delete target[from];
      warnings.push(`parameter "${from}" was sent as "${to}" to ${config.name}`);
    }
  }
  const override = channel.paramOverride;
  if (override !== undefined) {
    const keys = Object.keys(override);
    if (keys.length > 0) {
      const target = edit();
      for (const key of keys) target[key] = override[key];
      if (typeof override.model === 'string') finalModel = override.model;
    }
  }

  let requestBody: string | Uint8Array;
  if (body !== undefined) {
    // A parameter override that sets stream_options wins.
    if (spliceStreamUsage && !Object.hasOwn(body, 'stream_options')) {
      body.stream_options = { include_usage: true };
    }
    const finalOptions = body.stream_options;
    if (!(isRecord(finalOptions) && finalOptions.include_usage === true)) streamUsageForced = false;
    requestBody = JSON.stringify(body);
  } else if (spliceStreamUsage) {
    requestBody = spliceIntoJsonObject(call.rawBody ?? JSON.stringify(original));
  } else {
    requestBody = call.rawBody ?? JSON.stringify(original);
  }

  return {
    url: buildOpenAIUrl(call, channel, config, resolvedPath, finalModel),
    method: 'POST',
    headers: buildOpenAIHeaders(channel, config),
    body: requestBody,
    upstreamModel: finalModel,
    streamUsageForced,
    warnings,
  };
}

/**
 * Inserts `"stream_options":{"include_usage":true},` right after the opening brace of a JSON
 * object text, without parsing or re-serialising it. The caller guarantees the object has other
 * keys and no `stream_options` key.
 */
export function spliceIntoJsonObject(raw: string | Uint8Array): string | Uint8Array {
  if (typeof raw === 'string') {
    const brace = raw.indexOf('{');
    return `${raw.slice(0, brace + 1)}${STREAM_USAGE_FIELD}${raw.slice(brace + 1)}`;
  }
  const brace = raw.indexOf(123);
  const out = new Uint8Array(raw.length + STREAM_USAGE_BYTES.length);
  out.set(raw.subarray(0, brace + 1), 0);
  out.set(STREAM_USAGE_BYTES, brace + 1);
  out.set(raw.subarray(brace + 1), brace + 1 + STREAM_USAGE_BYTES.length);
  return out;
}

function applyReasoningModelRules(
  original: Readonly<Record<string, unknown>>,
  upstreamModel: string,
  pattern: RegExp,
  edit: () => Record<string, unknown>,
  warnings: string[],
): string {
  let model = upstreamModel;
  const suffix = EFFORT_SUFFIX.exec(model);
  if (suffix !== null && pattern.test(suffix[1]!)) {
    model = suffix[1]!;
    const target = edit();
    target.model = model;
    if (!Object.hasOwn(original, 'reasoning_effort')) target.reasoning_effort = suffix[2];
  }
  if (!pattern.test(model)) return model;
  if (Object.hasOwn(original, 'max_tokens') && !Object.hasOwn(original, 'max_completion_tokens')) {
    const target = edit();
    target.max_completion_tokens = original.max_tokens;
    delete target.max_tokens;
    warnings.push(`parameter "max_tokens" was sent as "max_completion_tokens" for reasoning model ${model}`);
  }
  return model;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
