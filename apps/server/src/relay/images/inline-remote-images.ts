import type { RelayCall } from '@switchyard/relay-kit';
import { fetchRemoteImage, ImageFetchError, type ImageFetchSettings } from './remote-image-fetcher.ts';

/** Most images one request may make the gateway download. */
const MAX_IMAGES = 16;

type Part = { type?: unknown; image_url?: unknown };

/** The http(s) `image_url` parts of a chat call's messages. */
function remoteImageParts(call: RelayCall): Array<{ part: Part; url: string }> {
  const found: Array<{ part: Part; url: string }> = [];
  const messages = call.body.messages;
  if (!Array.isArray(messages)) return found;
  for (const message of messages) {
    const content = (message as { content?: unknown }).content;
    if (!Array.isArray(content)) continue;
    for (const part of content as Part[]) {
      if (part?.type !== 'image_url') continue;
      const image = part.image_url;
      const url = typeof image === 'string' ? image : (image as { url?: unknown } | null)?.url;
      if (typeof url === 'string' && /^https?:\/\//i.test(url)) found.push({ part, url });
    }
  }
  return found;
}

/** True when the chat call links images the gateway would have to download. */
export function hasRemoteImages(call: RelayCall): boolean {
  return call.protocol === 'openai-chat' && remoteImageParts(call).length > 0;
}

/**
 * Replaces every http(s) image URL of a chat call by a `data:` URL of the downloaded bytes, for
 * upstreams that only take inline images. Returns a new call (the original body is not changed).
 */
export async function inlineRemoteImages(
  call: RelayCall,
  settings: ImageFetchSettings,
  fetchImpl?: typeof globalThis.fetch,
): Promise<RelayCall> {
  const body = structuredClone(call.body) as Record<string, unknown>;
  const copy: RelayCall = { ...call, body, rawBody: undefined };
  const parts = remoteImageParts(copy);
  if (parts.length === 0) return call;
  if (parts.length > MAX_IMAGES) throw new ImageFetchError(`一次请求最多引用 ${MAX_IMAGES} 张网络图片`);
  const downloads = parts;
  const images = await Promise.all(downloads.map(({ url }) => fetchRemoteImage(url, settings, fetchImpl)));
  downloads.forEach(({ part }, index) => {
    const image = images[index]!;
    const dataUrl = `data:${image.mimeType};base64,${image.data.toString('base64')}`;
    const detail = (part.image_url as { detail?: unknown } | null)?.detail;
    part.image_url = detail === undefined ? { url: dataUrl } : { url: dataUrl, detail };
  });
  return copy;
}
