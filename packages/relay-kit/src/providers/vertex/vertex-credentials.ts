import type { ChannelRuntime } from '../../spec/channel-runtime.js';
import { UpstreamError } from '../../spec/upstream-error.js';

/** Google's OAuth token endpoint, used when the key has no `token_uri`. */
export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
/** Region used when the channel sets none. */
export const VERTEX_DEFAULT_REGION = 'us-central1';

/** The fields of a Google service-account key the gateway needs. */
export interface VertexServiceAccount {
  readonly projectId: string;
  readonly clientEmail: string;
  /** PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`). Never log it. */
  readonly privateKey: string;
  readonly privateKeyId: string | undefined;
  readonly tokenUri: string;
}

/**
 * Parses a Vertex AI channel key: the service-account JSON downloaded from Google Cloud
 * (`project_id`, `client_email`, `private_key`, optional `token_uri`). Throws an
 * {@link UpstreamError} (`channel:invalid_key`, a channel fault) that names the missing field and
 * never quotes the key.
 */
export function parseServiceAccountKey(key: string): VertexServiceAccount {
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {
    throw invalidKey(
      'the Vertex AI channel key must be a service account JSON key, but it is not valid JSON',
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalidKey('the Vertex AI channel key must be a service account JSON object');
  }
  const record = parsed as Record<string, unknown>;
  const field = (name: string): string => {
    const value = record[name];
    if (typeof value !== 'string' || value.trim() === '') {
      throw invalidKey(`the Vertex AI service account key has no "${name}"`);
    }
    return value;
  };
  const privateKey = field('private_key');
  if (!privateKey.includes('-----BEGIN PRIVATE KEY-----')) {
    throw invalidKey(
      'the Vertex AI service account "private_key" must be a PKCS#8 PEM key (BEGIN PRIVATE KEY)',
    );
  }
  const tokenUri =
    typeof record.token_uri === 'string' && record.token_uri !== '' ? record.token_uri : GOOGLE_TOKEN_URI;
  if (!/^https?:\/\//i.test(tokenUri))
    throw invalidKey('the Vertex AI service account "token_uri" must be an http(s) URL');
  return {
    projectId: field('project_id'),
    clientEmail: field('client_email'),
    privateKey,
    privateKeyId: typeof record.private_key_id === 'string' ? record.private_key_id : undefined,
    tokenUri,
  };
}

/**
 * The region for a model: the channel's `other` is a region (`us-east5`, `global`) or a JSON map
 * `{"default": region, "<model>": region}`; the upstream model, then the requested model, then
 * `default` are looked up. Empty → {@link VERTEX_DEFAULT_REGION}. Invalid settings throw a
 * `channel:bad_endpoint` {@link UpstreamError}.
 */
export function resolveVertexRegion(
  channel: ChannelRuntime,
  upstreamModel: string,
  requestedModel: string,
): string {
  const other = channel.other?.trim() ?? '';
  if (other === '') return VERTEX_DEFAULT_REGION;
  if (!other.startsWith('{')) return checkRegion(other);
  let map: unknown;
  try {
    map = JSON.parse(other);
  } catch {
    throw badRegion('the Vertex AI channel region setting is neither a region nor valid JSON');
  }
  if (typeof map !== 'object' || map === null || Array.isArray(map)) {
    throw badRegion('the Vertex AI channel region setting must be a JSON object of model → region');
  }
  const table = map as Record<string, unknown>;
  for (const name of [upstreamModel, requestedModel, 'default']) {
    const region = table[name];
    if (typeof region === 'string' && region !== '') return checkRegion(region);
  }
  throw badRegion(`the Vertex AI channel region setting has no region for ${upstreamModel} and no "default"`);
}

/** The API host of a region (`global` has no regional prefix). */
export function vertexHost(region: string): string {
  return region === 'global' ? 'aiplatform.googleapis.com' : `${region}-aiplatform.googleapis.com`;
}

function checkRegion(region: string): string {
  if (!/^[a-z0-9-]+$/.test(region)) throw badRegion(`"${region}" is not a valid Vertex AI region`);
  return region;
}

function invalidKey(message: string): UpstreamError {
  return new UpstreamError({
    status: 0,
    code: 'channel:invalid_key',
    message,
    retryable: true,
    channelFault: true,
  });
}

function badRegion(message: string): UpstreamError {
  return new UpstreamError({
    status: 0,
    code: 'channel:bad_endpoint',
    message,
    retryable: true,
    channelFault: true,
  });
}
