import { Button, Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router';
import { type Access, hasAccess } from '../lib/access';
import { EXPIRED_LOGIN_PATH } from '../lib/api-client';
import { isSessionExpired, useSessionUser } from '../lib/session';

/**
 * Guards a route by its access flag: logged-out visitors go to /login (/login?expired=true after
 * a 401; the page they wanted is kept in location state), users without the role see a 403
 * result. The server still checks every admin call.
 */
export function RequireAccess({ access, children }: { access: Access; children: ReactNode }) {
  const user = useSessionUser();
  const location = useLocation();
  const { t } = useTranslation();
  if (access === 'public') return children;
  if (!user) {
    // After a 401 the api-client clears the user; keep the "login expired" hint in that case.
    const to = isSessionExpired() ? EXPIRED_LOGIN_PATH : '/login';
    return <Navigate to={to} replace state={{ from: `${location.pathname}${location.search}` }} />;
  }
  if (!hasAccess(access, user)) {
    return (
      <Result
        status="403"
        title="403"
        subTitle={t('access.forbidden')}
        extra={
          <Link to="/setting">
            <Button type="primary">{t('access.backToConsole')}</Button>
          </Link>
        }
      />
    );
  }
  return children;
}
