import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { homeKeys } from './home-keys';

/** GET /api/notice → the Notice option (Markdown or HTML; '' when unset). */
export async function getNotice(signal?: AbortSignal): Promise<string> {
  const notice = await apiClient.get<string | null>('/api/notice', {
    silent: true,
    ...(signal ? { signal } : {}),
  });
  return typeof notice === 'string' ? notice : '';
}

export const noticeQueryOptions = () =>
  queryOptions({
    queryKey: homeKeys.notice(),
    queryFn: ({ signal }) => getNotice(signal),
    staleTime: 0,
    retry: false,
    // The notice is a courtesy: a failure to load it is not worth an error message.
    meta: { silentError: true },
  });

export function useNoticeQuery() {
  return useQuery(noticeQueryOptions());
}
