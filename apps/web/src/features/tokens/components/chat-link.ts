import type { SiteStatus } from '../../../lib/site-status';
import { parseChats } from '../../../lib/site-status';

/** A chat client a token can be opened in. */
export interface ChatTarget {
  name: string;
  url: string;
}

/**
 * Builds the chat URL for a key. With the `chat_link` option the key and the server address go
 * into its `settings` fragment; a configured chats entry may instead carry `{key}` and
 * `{address}` placeholders. Returns 'missing' when nothing is configured and 'invalid' when the
 * configuration is not a usable URL.
 */
export function buildChatUrl(
  target: ChatTarget,
  key: string,
  serverAddress: string,
): { url: string } | { error: 'invalid' } {
  const address = serverAddress.replace(/\/+$/, '');
  let url: string;
  if (target.url.includes('{key}') || target.url.includes('{address}')) {
    url = target.url
      .replaceAll('{key}', encodeURIComponent(key))
      .replaceAll('{address}', encodeURIComponent(address));
  } else {
    const settings = JSON.stringify({ key, url: address });
    url = `${target.url.replace(/\/+$/, '')}/#/?settings=${encodeURIComponent(settings)}`;
  }
  try {
    const parsed = new URL(url);
    if (['javascript:', 'data:', 'vbscript:'].includes(parsed.protocol)) return { error: 'invalid' };
  } catch {
    return { error: 'invalid' };
  }
  return { url };
}

/** The chat clients configured by the administrator: chat_link first, then the chats list. */
export function chatTargets(status: SiteStatus): { targets: ChatTarget[]; invalid: boolean } {
  const targets: ChatTarget[] = [];
  if (status.chat_link) targets.push({ name: 'ChatGPT Next Web', url: status.chat_link });
  try {
    for (const chat of parseChats(status.chats)) targets.push(chat);
    return { targets, invalid: false };
  } catch {
    return { targets, invalid: true };
  }
}
