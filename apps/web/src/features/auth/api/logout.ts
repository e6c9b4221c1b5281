import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { endSession } from '../../../lib/end-session';
import { notify } from '../../../lib/notify';

/**
 * Logs out: GET /api/user/logout, clears the stored user and cached data, shows '注销成功!' and
 * goes to /login.
 */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t } = useTranslation('auth');
  return useCallback(async () => {
    await endSession();
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'status' });
    notify.success(t('logout.success'));
    await navigate('/login');
  }, [navigate, queryClient, t]);
}
