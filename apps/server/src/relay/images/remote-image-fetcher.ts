import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** How remote images are downloaded (options WorkerUrl / WorkerValidKey and the environment). */
export interface ImageFetchSettings {
  /** A Cloudflare-worker style relay: POST `{url, key, method}` and it answers with the bytes. */
  readonly workerUrl: string;
  readonly workerKey: string;
  /** Largest image accepted, in bytes. */
  readonly maxBytes: number;
  readonly timeoutMs: number;
  /** Allow loopback, private and link-local targets (off by default: no SSRF into the LAN). */
  readonly allowPrivateAddresses: boolean;
}

/** A downloaded image. */
export interface RemoteImage {
  readonly mimeType: string;
  readonly data: Buffer;
}

/** A download refused or failed; the message is safe to show to the client. */
export class ImageFetchError extends Error {
  override name = 'ImageFetchError';
}

const MAX_REDIRECTS = 3;

const PRIVATE_RANGES = new BlockList();
for (const range of [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '::/128',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
]) {
  const [network = '', prefix] = range.split('/');
  PRIVATE_RANGES.addSubnet(network, Number(prefix), isIP(network) === 6 ? 'ipv6' : 'ipv4');
}

/** True for loopback, private, CGNAT and link-local addresses (IPv4-mapped IPv6 included). */
export function isPrivateAddress(address: string): boolean {
  const normalized = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  const family = isIP(normalized);
  if (family === 0) return true;
  return PRIVATE_RANGES.check(normalized, family === 6 ? 'ipv6' : 'ipv4');
}

async function assertPublicHost(url: URL): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) {
    throw new ImageFetchError(`图片地址指向内网或本机，已拒绝：${url.host}`);
  }
}

function parseImageUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ImageFetchError('图片地址无效');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ImageFetchError('图片地址必须是 http(s)');
  return url;
}

async function readLimited(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw new ImageFetchError(`图片超过 ${Math.floor(maxBytes / 1048576)} MB 上限`);
  const chunks: Buffer[] = [];
  let size = 0;
  if (!response.body) return Buffer.alloc(0);
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > maxBytes) throw new ImageFetchError(`图片超过 ${Math.floor(maxBytes / 1048576)} MB 上限`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

const EXTENSION_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
};

function mimeTypeOf(response: Response, url: URL): string {
  const declared = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (declared.startsWith('image/')) return declared;
  const extension = url.pathname.split('.').pop()?.toLowerCase() ?? '';
  const guessed = EXTENSION_TYPES[extension];
  if (guessed && (declared === '' || declared === 'application/octet-stream')) return guessed;
  throw new ImageFetchError(`地址返回的不是图片（${declared || '未知类型'}）`);
}

/**
 * Downloads an image for an upstream that cannot fetch URLs itself. With a worker configured the
 * worker fetches it (https targets only, as the reference); otherwise the gateway does, refusing
 * private addresses (re-checked on every redirect) unless allowed, within a size and time limit.
 */
export async function fetchRemoteImage(
  raw: string,
  settings: ImageFetchSettings,
  fetchImpl: typeof globalThis.fetch = globalThis.fetch,
): Promise<RemoteImage> {
  let url = parseImageUrl(raw);
  const signal = AbortSignal.timeout(settings.timeoutMs);
  try {
    if (settings.workerUrl) {
      if (url.protocol !== 'https:') throw new ImageFetchError('通过 Worker 下载的图片地址必须是 https');
      const response = await fetchImpl(settings.workerUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: url.href, key: settings.workerKey, method: 'GET' }),
        signal,
      });
      if (!response.ok) throw new ImageFetchError(`图片下载失败：Worker 返回 ${response.status}`);
      return { mimeType: mimeTypeOf(response, url), data: await readLimited(response, settings.maxBytes) };
    }
    for (let redirect = 0; ; redirect++) {
      if (!settings.allowPrivateAddresses) await assertPublicHost(url);
      const response = await fetchImpl(url, { redirect: 'manual', signal });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        if (redirect >= MAX_REDIRECTS) throw new ImageFetchError('图片地址重定向次数过多');
        url = parseImageUrl(new URL(location, url).href);
        continue;
      }
      if (!response.ok) throw new ImageFetchError(`图片下载失败：HTTP ${response.status}`);
      return { mimeType: mimeTypeOf(response, url), data: await readLimited(response, settings.maxBytes) };
    }
  } catch (error) {
    if (error instanceof ImageFetchError) throw error;
    if (signal.aborted) throw new ImageFetchError('图片下载超时');
    throw new ImageFetchError(`图片下载失败：${url.host}`);
  }
}
