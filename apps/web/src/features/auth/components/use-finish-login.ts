import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notify } from '../../../lib/notify';
import { setSessionUser } from '../../../lib/session';
import type { LoginUser } from '../api/auth-types';

/** The default account and its weak default password; logging in with both shows a warning. */
export const DEFAULT_ROOT_USERNAME = 'root';
export const DEFAULT_ROOT_PASSWORD = '123456';

/**
 * Completes any login: stores the user (later calls carry its id in New-Api-User), says
 * '登录成功！', warns about the default password and navigates to the landing path.
 */
export function useFinishLogin() {
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const { t } = useTranslation('auth');
  return useCallback(
    async (user: LoginUser, landing: string, credentials?: { username: string; password: string }) => {
      setSessionUser({
        id: user.id,
        username: user.username,
        display_name: user.display_name,
        role: user.role,
        status: user.status,
        group: user.group,
      });
      notify.success(t('login.success'));
      if (credentials?.username === DEFAULT_ROOT_USERNAME && credentials.password === DEFAULT_ROOT_PASSWORD) {
        modal.error({
          title: t('login.weakPassword.title'),
          content: t('login.weakPassword.content'),
          centered: true,
        });
      }
      await navigate(landing);
    },
    [navigate, modal, t],
  );
}
