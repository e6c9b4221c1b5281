import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { readString, writeString } from '../../../lib/storage';
import { aboutKeys } from './about-keys';

/** localStorage key of the last loaded about content (shown at once on the next visit). */
export const ABOUT_STORAGE_KEY = 'about';

/** GET /api/about → the About option (Markdown, HTML or a URL; '' when unset). */
export async function getAbout(signal?: AbortSignal): Promise<string> {
  const about = await apiClient.get<string | null>('/api/about', signal ? { signal } : {});
  const text = typeof about === 'string' ? about : '';
  writeString(ABOUT_STORAGE_KEY, text);
  return text;
}

export const aboutQueryOptions = () =>
  queryOptions({
    queryKey: aboutKeys.content(),
    queryFn: ({ signal }) => getAbout(signal),
    staleTime: 0,
    placeholderData: readString(ABOUT_STORAGE_KEY) ?? undefined,
  });

export function useAboutQuery() {
  return useQuery(aboutQueryOptions());
}
