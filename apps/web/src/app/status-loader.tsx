import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { apiClient, isApiError } from '../lib/api-client';
import { notify } from '../lib/notify';
import { DEFAULT_SYSTEM_NAME, type SiteStatus, saveSiteStatus, useSiteStatus } from '../lib/site-status';

export const statusQueryKey = ['status'] as const;

/**
 * Loads GET /api/status once on start, stores it (localStorage `status` and the legacy single
 * keys) and applies the title and favicon. A success:false reply shows 'Unable to connect to
 * server', any other failure 'Failed to load status' (the original console's messages).
 */
export function StatusLoader() {
  const { t } = useTranslation();
  const status = useSiteStatus();
  const query = useQuery({
    queryKey: statusQueryKey,
    queryFn: ({ signal }) => apiClient.get<SiteStatus>('/api/status', { signal, silent: true }),
    meta: { silentError: true },
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

  useEffect(() => {
    if (query.data) saveSiteStatus(query.data);
  }, [query.data]);

  useEffect(() => {
    if (!query.error) return;
    notify.error(
      isApiError(query.error) && query.error.kind === 'envelope'
        ? t('status.unableToConnect')
        : t('status.loadFailed'),
    );
  }, [query.error, t]);

  useEffect(() => {
    document.title = status.system_name || DEFAULT_SYSTEM_NAME;
    const href = status.logo || '/logo.svg';
    let link = document.querySelector<HTMLLinkElement>("link[rel~='icon']");
    if (!link) {
      link = document.createElement('link');
      link.rel = 'icon';
      document.head.appendChild(link);
    }
    if (link.getAttribute('href') !== href) link.href = href;
  }, [status.system_name, status.logo]);

  return null;
}
