import type { ChannelRuntime } from '../../spec/channel-runtime.js';
import { UpstreamError, upstreamErrorFromException } from '../../spec/upstream-error.js';
import type { OpenAIFamilyConfig, OpenAIModelsListing } from './openai-config.js';
import { parseOpenAIError } from './openai-error.js';
import { buildOpenAIHeaders, joinUrl, resolveBaseUrl } from './openai-request-target.js';

/**
 * Lists the models of an OpenAI-family channel with one GET through the injected `fetch`:
 * `{base}/v1/models` (or the vendor's path) with the channel's credentials and header override.
 * Non-2xx answers become the upstream's `UpstreamError`; network failures are classified like
 * relay failures. Names are returned in the upstream's order, without duplicates.
 */
export async function listOpenAIFamilyModels(
  channel: ChannelRuntime,
  config: OpenAIFamilyConfig,
  listing: OpenAIModelsListing,
  fetch: typeof globalThis.fetch,
): Promise<string[]> {
  const baseUrl = resolveBaseUrl(channel, config);
  const path = typeof listing.path === 'function' ? listing.path(channel, baseUrl) : listing.path;
  const url = /^https?:\/\//.test(path) ? path : joinUrl(baseUrl, path);
  const headers = buildOpenAIHeaders(channel, config);
  delete headers['content-type'];
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { method: 'GET', headers });
    text = await response.text();
  } catch (error) {
    throw upstreamErrorFromException(error);
  }
  if (!response.ok) throw parseOpenAIError(response.status, text, response.headers);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new UpstreamError({
      status: response.status,
      code: 'upstream:bad_response',
      message: 'the model list is not valid JSON',
      retryable: false,
      channelFault: true,
      rawBody: text,
    });
  }
  return readModelNames(body, listing.format ?? 'openai');
}

/** The model names of a model list body. */
export function readModelNames(body: unknown, format: 'openai' | 'ollama' | 'cloudflare'): string[] {
  const record = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const entries =
    format === 'cloudflare'
      ? record.result
      : format === 'ollama'
        ? record.models
        : (record.data ?? record.models);
  if (!Array.isArray(entries)) {
    throw new UpstreamError({
      status: 200,
      code: 'upstream:bad_response',
      message: 'the model list has an unexpected shape',
      retryable: false,
      channelFault: true,
    });
  }
  const names = new Set<string>();
  for (const entry of entries) {
    if (typeof entry === 'string') names.add(entry);
    else if (typeof entry === 'object' && entry !== null) {
      const item = entry as Record<string, unknown>;
      const name = format === 'openai' ? (item.id ?? item.name) : (item.name ?? item.model ?? item.id);
      if (typeof name === 'string' && name !== '') names.add(name);
    }
  }
  return [...names];
}
