import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notify } from '../../../lib/notify';
import { getChatKey } from '../api/get-chat-key';

/** Delay before sending a user without an enabled token to /token. */
export const NO_TOKEN_REDIRECT_MS = 1500;

/**
 * The sk- key of the user's first enabled token. With none, shows the spec's message and goes to
 * /token after 1.5 s.
 */
export function useChatKey(enabled = true) {
  const { t } = useTranslation('chat');
  const navigate = useNavigate();
  const query = useQuery({
    queryKey: ['chat', 'key'],
    queryFn: ({ signal }) => getChatKey(signal),
    staleTime: 0,
    enabled,
  });
  const none = query.isSuccess && query.data === null;
  useEffect(() => {
    if (!none) return;
    notify.error(t('noEnabledToken'));
    const timer = setTimeout(() => void navigate('/token'), NO_TOKEN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [none, navigate, t]);
  return query;
}
