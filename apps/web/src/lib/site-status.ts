import { createStoredValue } from './external-store';
import { writeString } from './storage';

/** Public site configuration from GET /api/status (field names exactly as the server sends them). */
export interface SiteStatus {
  version?: string;
  start_time?: number;
  system_name?: string;
  logo?: string;
  footer_html?: string;
  server_address?: string;
  docs_link?: string;
  quota_per_unit?: number;
  display_in_currency?: boolean;
  display_token_stat?: boolean;
  enable_drawing?: boolean;
  enable_task?: boolean;
  enable_data_export?: boolean;
  enable_batch_update?: boolean;
  data_export_default_time?: string;
  default_collapse_sidebar?: boolean;
  mj_notify_enabled?: boolean;
  chats?: unknown;
  chat_link?: string;
  chat_link2?: string;
  email_verification?: boolean;
  github_oauth?: boolean;
  github_client_id?: string;
  linuxdo_oauth?: boolean;
  linuxdo_client_id?: string;
  telegram_oauth?: boolean;
  telegram_bot_name?: string;
  wechat_login?: boolean;
  wechat_qrcode?: string;
  turnstile_check?: boolean;
  turnstile_site_key?: string;
  top_up_link?: string;
  price?: number;
  min_topup?: number;
  enable_online_topup?: boolean;
  self_use_mode_enabled?: boolean;
  demo_site_enabled?: boolean;
  setup?: boolean;
}

export const STATUS_STORAGE_KEY = 'status';
export const DEFAULT_SYSTEM_NAME = 'Switchyard';

const store = createStoredValue<SiteStatus>({
  key: STATUS_STORAGE_KEY,
  parse: (raw) => {
    if (!raw) return {};
    try {
      const value = JSON.parse(raw) as SiteStatus | null;
      return value && typeof value === 'object' ? value : {};
    } catch {
      return {};
    }
  },
  serialize: (value) => JSON.stringify(value),
});

/** The last loaded status (from localStorage until GET /api/status answers). */
export const getSiteStatus = (): SiteStatus => store.get();
export const subscribeSiteStatus = store.subscribe;
/** React hook: the site status, re-rendering when a fresh status is stored. */
export const useSiteStatus = (): SiteStatus => store.use();

const stringify = (value: unknown): string | null => {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
};

/**
 * Stores a freshly loaded status: the whole object under `status`, plus the individual keys the
 * original console kept (chats, chat_link, chat_link2, footer_html, ...) so other tabs and pages
 * that read them directly stay compatible.
 */
export function saveSiteStatus(status: SiteStatus): void {
  writeString('system_name', stringify(status.system_name));
  writeString('logo', stringify(status.logo));
  writeString('footer_html', stringify(status.footer_html));
  writeString('quota_per_unit', stringify(status.quota_per_unit));
  writeString('display_in_currency', stringify(status.display_in_currency));
  writeString('enable_drawing', stringify(status.enable_drawing));
  writeString('enable_task', stringify(status.enable_task));
  writeString('enable_data_export', stringify(status.enable_data_export));
  writeString('data_export_default_time', stringify(status.data_export_default_time));
  writeString('default_collapse_sidebar', stringify(status.default_collapse_sidebar));
  writeString('mj_notify_enabled', stringify(status.mj_notify_enabled));
  writeString('chats', stringify(status.chats));
  writeString('chat_link', stringify(status.chat_link));
  writeString('chat_link2', stringify(status.chat_link2));
  store.set(status);
}

/** A configured chat client: label and URL template (from the `Chats` option). */
export interface ChatEntry {
  name: string;
  url: string;
}

/**
 * Parses the `chats` list ([{"Label": "url"}, ...], as a JSON string or an array).
 * Throws when the value is not an array of objects, so callers can report the parse failure.
 */
export function parseChats(value: unknown): ChatEntry[] {
  if (value === undefined || value === null || value === '') return [];
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (!Array.isArray(parsed)) throw new Error('chats is not an array');
  const entries: ChatEntry[] = [];
  for (const item of parsed) {
    if (!item || typeof item !== 'object') throw new Error('chat entry is not an object');
    for (const [name, url] of Object.entries(item as Record<string, unknown>)) {
      entries.push({ name, url: String(url) });
    }
  }
  return entries;
}
