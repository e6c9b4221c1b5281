import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { walletKeys } from './wallet-keys';

/** The wallet's view of GET /api/user/self. */
export interface WalletUser {
  id: number;
  username: string;
  group: string;
  quota: number;
  used_quota: number;
  request_count: number;
}

export function getWalletUser(signal?: AbortSignal): Promise<WalletUser> {
  return apiClient.get<WalletUser>('/api/user/self', signal ? { signal } : {});
}

export const walletUserQueryOptions = () =>
  queryOptions({ queryKey: walletKeys.self(), queryFn: ({ signal }) => getWalletUser(signal) });

/** The balance shown on the wallet page. */
export function useWalletUserQuery() {
  return useQuery(walletUserQueryOptions());
}
