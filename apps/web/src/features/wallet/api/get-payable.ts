import { apiClient } from '../../../lib/api-client';

/** POST /api/user/amount {amount, top_up_code} → the payable sum, e.g. "21.90". */
export function getPayable(amount: number, topUpCode = ''): Promise<string> {
  return apiClient.post<string>('/api/user/amount', { amount, top_up_code: topUpCode });
}
