import { TOKEN_KEY_PREFIX } from '@switchyard/shared';
import { apiClient } from '../../../lib/api-client';

interface TokenRow {
  key: string;
  status: number;
}

/**
 * The key the chat clients use: the first 100 tokens are fetched (GET /api/token/?p=0&size=100,
 * a bare array), only enabled ones (status 1) count, and the first one's key is used as
 * `sk-` + the stored key. Null when no token is enabled.
 */
export async function getChatKey(signal?: AbortSignal): Promise<string | null> {
  const tokens = await apiClient.get<TokenRow[] | null>('/api/token/', {
    query: { p: 0, size: 100 },
    ...(signal ? { signal } : {}),
  });
  const enabled = (tokens ?? []).find((token) => token.status === 1 && token.key !== '');
  return enabled ? `${TOKEN_KEY_PREFIX}${enabled.key}` : null;
}
