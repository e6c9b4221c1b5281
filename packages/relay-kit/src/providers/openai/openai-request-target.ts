import type { ChannelRuntime } from '../../spec/channel-runtime.js';
import type { RelayCall } from '../../spec/relay-call.js';
import { UpstreamError } from '../../spec/upstream-error.js';
import type { OpenAIFamilyConfig } from './openai-config.js';

/** Base URLs of Cloudflare AI Gateway, whose provider endpoints have no `/v1` segment. */
export const CLOUDFLARE_AI_GATEWAY = 'https://gateway.ai.cloudflare.com';

/**
 * The upstream path for a call: the config's path for the protocol, with image edits
 * (`/images/edits`) and audio translations (`/audio/translations`) taking their sibling endpoint
 * when the client called them.
 */
export function resolveOpenAIPath(path: string, call: RelayCall): string {
  const clientPath = call.path ?? '';
  if (call.protocol === 'openai-images' && /\/images\/edits\/?$/.test(clientPath)) {
    return path.replace(/images\/generations$/, 'images/edits');
  }
  if (call.protocol === 'openai-audio-transcription' && /\/audio\/translations\/?$/.test(clientPath)) {
    return path.replace(/audio\/transcriptions$/, 'audio/translations');
  }
  return path;
}

/** The channel's base URL (or the config default) without trailing slashes. */
export function resolveBaseUrl(channel: ChannelRuntime, config: OpenAIFamilyConfig): string {
  let base = (channel.baseUrl || '').trim();
  if (base === '') {
    if (config.requiresBaseUrl === true || config.defaultBaseUrl === '') {
      throw new UpstreamError({
        status: 0,
        code: 'channel:bad_endpoint',
        message: `channel type ${config.channelType} (${config.name}) needs a base URL and the channel has none`,
        retryable: true,
        channelFault: true,
      });
    }
    base = config.defaultBaseUrl;
  }
  while (base.endsWith('/')) base = base.slice(0, -1);
  return base;
}

/**
 * The full upstream URL: the config's URL builder when it has one, otherwise base URL + path.
 * A Cloudflare AI Gateway base drops the path's leading `/v1` (reference §3.10).
 */
export function buildOpenAIUrl(
  call: RelayCall,
  channel: ChannelRuntime,
  config: OpenAIFamilyConfig,
  path: string,
  model: string,
): string {
  const baseUrl = resolveBaseUrl(channel, config);
  if (config.buildUrl !== undefined) return config.buildUrl({ call, channel, baseUrl, path, model });
  if (baseUrl.startsWith(CLOUDFLARE_AI_GATEWAY) && path.startsWith('/v1/')) {
    return baseUrl + path.slice(3);
  }
  return joinUrl(baseUrl, path);
}

/**
 * Joins a base URL and a path: trailing slashes are removed, and a base that already ends with
 * the path's first segment (`https://host/v1` + `/v1/chat/completions`) does not repeat it.
 */
export function joinUrl(baseUrl: string, path: string): string {
  let base = baseUrl.trim();
  while (base.endsWith('/')) base = base.slice(0, -1);
  const firstSegmentEnd = path.indexOf('/', 1);
  if (firstSegmentEnd > 0) {
    const firstSegment = path.slice(0, firstSegmentEnd);
    if (base.endsWith(firstSegment)) return base + path.slice(firstSegmentEnd);
  }
  return base + path;
}

/** Headers for an OpenAI-family upstream: JSON content type, credentials, then overrides. */
export function buildOpenAIHeaders(
  channel: ChannelRuntime,
  config: OpenAIFamilyConfig,
): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const auth = config.auth;
  if (auth.style === 'bearer') headers.authorization = `Bearer ${channel.key}`;
  else if (auth.style === 'bearer-optional') {
    if (channel.key.trim() !== '') headers.authorization = `Bearer ${channel.key}`;
  } else if (auth.style === 'header') headers[auth.header.toLowerCase()] = channel.key;
  else if (auth.style === 'custom') {
    for (const [name, value] of Object.entries(auth.headers(channel))) headers[name.toLowerCase()] = value;
  }
  if (config.sendOrganization === true && channel.organization) {
    headers['openai-organization'] = channel.organization;
  }
  if (config.extraHeaders !== undefined) {
    for (const [name, value] of Object.entries(config.extraHeaders)) headers[name.toLowerCase()] = value;
  }
  if (channel.headerOverride !== undefined) {
    for (const [name, value] of Object.entries(channel.headerOverride)) {
      headers[name.toLowerCase()] = value.replaceAll('{api_key}', channel.key);
    }
  }
  return headers;
}
