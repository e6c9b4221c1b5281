import type { ChannelRuntime } from '../../spec/channel-runtime.js';
import { joinUrl } from '../openai/convert-to-openai-request.js';
import { GEMINI_DEFAULT_BASE_URL } from './convert-to-gemini-request.js';
import { isRecord } from './gemini-api.js';
import { parseGeminiError } from './gemini-error.js';

/** Pages read at most (1000 models each); protects against an upstream that never stops paging. */
const MAX_PAGES = 20;

/**
 * Lists the models a Gemini key can use: `GET {base}/v1beta/models?pageSize=1000`, following
 * `nextPageToken`; names without the `models/` prefix, only models whose
 * `supportedGenerationMethods` include `generateContent`. A non-2xx answer throws the parsed
 * `UpstreamError`.
 */
export async function listGeminiModels(
  channel: ChannelRuntime,
  fetch: typeof globalThis.fetch,
): Promise<string[]> {
  const names: string[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams({ pageSize: '1000' });
    if (pageToken !== undefined) query.set('pageToken', pageToken);
    const response = await fetch(
      `${joinUrl(channel.baseUrl || GEMINI_DEFAULT_BASE_URL, '/v1beta/models')}?${query}`,
      { method: 'GET', headers: { 'x-goog-api-key': channel.key } },
    );
    const text = await response.text();
    if (!response.ok) throw parseGeminiError(response.status, text, response.headers);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw parseGeminiError(502, text, response.headers);
    }
    const models = isRecord(body) && Array.isArray(body.models) ? body.models : [];
    for (const model of models) {
      if (!isRecord(model) || typeof model.name !== 'string') continue;
      const methods = model.supportedGenerationMethods;
      if (Array.isArray(methods) && !methods.includes('generateContent')) continue;
      names.push(model.name.startsWith('models/') ? model.name.slice(7) : model.name);
    }
    const next = isRecord(body) ? body.nextPageToken : undefined;
    if (typeof next !== 'string' || next === '') break;
    pageToken = next;
  }
  return names;
}
