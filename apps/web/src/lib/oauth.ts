import { apiClient } from './api-client';
import { readString } from './storage';

/** localStorage key holding the invite code captured from /register?aff=. */
export const AFF_STORAGE_KEY = 'aff';

/** GET /api/oauth/state (optionally with the stored invite code) → a one-time state value. */
export function fetchOAuthState(): Promise<string> {
  const aff = readString(AFF_STORAGE_KEY);
  return apiClient.get<string>('/api/oauth/state', { query: aff ? { aff } : {} });
}

export function gitHubAuthorizeUrl(clientId: string, state: string): string {
  const query = new URLSearchParams({ client_id: clientId, state, scope: 'user:email' });
  return `https://github.com/login/oauth/authorize?${query.toString()}`;
}

export function linuxDoAuthorizeUrl(clientId: string, state: string): string {
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, state });
  return `https://connect.linux.do/oauth2/authorize?${query.toString()}`;
}

/** Starts a GitHub or Linux-DO login/bind: fetch a state, then leave for the provider. */
export async function startOAuth(provider: 'github' | 'linuxdo', clientId: string): Promise<void> {
  const state = await fetchOAuthState();
  const url =
    provider === 'github' ? gitHubAuthorizeUrl(clientId, state) : linuxDoAuthorizeUrl(clientId, state);
  window.location.assign(url);
}
