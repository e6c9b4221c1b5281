import type { ChannelRuntime } from '../../spec/channel-runtime.js';
import { joinUrl } from '../openai/convert-to-openai-request.js';
import { parseAnthropicError } from './anthropic-error.js';
import { ANTHROPIC_DEFAULT_BASE_URL, DEFAULT_ANTHROPIC_VERSION } from './convert-to-anthropic-request.js';

/** Most pages followed when listing models (guards against an upstream that never ends). */
const MAX_PAGES = 20;

/**
 * Lists the models of an Anthropic channel: `GET {base}/v1/models?limit=1000` with `x-api-key`
 * and `anthropic-version`, following `has_more` / `last_id` (`after_id`). A non-2xx answer throws
 * the parsed `UpstreamError`.
 */
export async function listAnthropicModels(
  channel: ChannelRuntime,
  fetch: typeof globalThis.fetch,
): Promise<string[]> {
  const base = joinUrl(channel.baseUrl || ANTHROPIC_DEFAULT_BASE_URL, '/v1/models');
  const headers = { 'x-api-key': channel.key, 'anthropic-version': DEFAULT_ANTHROPIC_VERSION };
  const models: string[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const url = `${base}?limit=1000${after === undefined ? '' : `&after_id=${encodeURIComponent(after)}`}`;
    const response = await fetch(url, { method: 'GET', headers });
    const text = await response.text();
    if (!response.ok) throw parseAnthropicError(response.status, text, response.headers);
    let body: { data?: unknown; has_more?: unknown; last_id?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw parseAnthropicError(502, text, response.headers);
    }
    if (Array.isArray(body.data)) {
      for (const model of body.data) {
        const id = typeof model === 'object' && model !== null ? (model as { id?: unknown }).id : undefined;
        if (typeof id === 'string' && !models.includes(id)) models.push(id);
      }
    }
    if (body.has_more !== true || typeof body.last_id !== 'string' || body.last_id === after) break;
    after = body.last_id;
  }
  return models;
}
