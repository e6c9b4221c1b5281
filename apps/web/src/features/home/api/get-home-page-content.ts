import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { readString, writeString } from '../../../lib/storage';
import { homeKeys } from './home-keys';

/** localStorage key of the last loaded home page content (shown at once on the next visit). */
export const HOME_CONTENT_STORAGE_KEY = 'home_page_content';

/** GET /api/home_page_content → the HomePageContent option (Markdown, HTML or a URL; '' when unset). */
export async function getHomePageContent(signal?: AbortSignal): Promise<string> {
  const content = await apiClient.get<string | null>('/api/home_page_content', signal ? { signal } : {});
  const text = typeof content === 'string' ? content : '';
  writeString(HOME_CONTENT_STORAGE_KEY, text);
  return text;
}

export const homePageContentQueryOptions = () =>
  queryOptions({
    queryKey: homeKeys.content(),
    queryFn: ({ signal }) => getHomePageContent(signal),
    staleTime: 0,
    placeholderData: readString(HOME_CONTENT_STORAGE_KEY) ?? undefined,
  });

export function useHomePageContentQuery() {
  return useQuery(homePageContentQueryOptions());
}
