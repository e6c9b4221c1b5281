import { type ChatEntry, parseChats } from '../../../lib/site-status';

/** The chat entry at `index` of the configured chats, or an error kind. */
export function chatEntryAt(
  chats: unknown,
  index: number,
): { entry: ChatEntry } | { error: 'invalid' | 'missing' } {
  let entries: ChatEntry[];
  try {
    entries = parseChats(chats);
  } catch {
    return { error: 'invalid' };
  }
  if (entries.length === 0) return { error: 'missing' };
  const entry = entries[index];
  if (!entry || !Number.isInteger(index) || entry.url.trim() === '') return { error: 'invalid' };
  return { entry };
}

/** Fills a chat URL template: {key} → the sk- key, {address} → the URL-encoded server address. */
export function fillChatTemplate(template: string, key: string, serverAddress: string): string {
  return template.replaceAll('{address}', encodeURIComponent(serverAddress)).replaceAll('{key}', key);
}

/** The chat link with the key and server preset (the ChatGPT-Next-Web settings URL). */
export function chatLinkWithSettings(chatLink: string, key: string, serverAddress: string): string {
  const base = chatLink.replace(/\/+$/, '');
  const settings = JSON.stringify({ key, url: serverAddress });
  return `${base}/#/?settings=${encodeURIComponent(settings)}`;
}
