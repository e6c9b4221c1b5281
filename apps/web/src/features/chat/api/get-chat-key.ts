import { apiClient } from '../../../lib/api-client';

interface TokenRow {
  id: number;
  status: number;
}

/**
 * The key the chat clients use: the first 100 tokens are fetched (GET /api/token/?p=0&size=100),
 * only enabled ones (status 1) count, and the full key of the first one is read with
 * POST /api/token/{id}/key (lists show keys masked). Null when no token is enabled.
 */
export async function getChatKey(signal?: AbortSignal): Promise<string | null> {
  const page = await apiClient.get<{ items?: TokenRow[] } | TokenRow[] | null>('/api/token/', {
    query: { p: 0, size: 100 },
    ...(signal ? { signal } : {}),
  });
  const tokens = Array.isArray(page) ? page : (page?.items ?? []);
  const enabled = tokens.find((token) => token.status === 1);
  if (!enabled) return null;
  const view = await apiClient.post<{ key: string }>(
    `/api/token/${enabled.id}/key`,
    undefined,
    signal ? { signal } : {},
  );
  const key = view?.key ?? '';
  if (key === '') return null;
  return key.startsWith('sk-') ? key : `sk-${key}`;
}
