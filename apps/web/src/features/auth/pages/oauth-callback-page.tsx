import { Button, Result, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { useLandingPaths } from '../../../lib/landing';
import { notify } from '../../../lib/notify';
import { completeOAuth, type OAuthProvider } from '../api/oauth-login';
import { useFinishLogin } from '../components/use-finish-login';

/** Wait before leaving a failed callback, so the messages can be read. */
const FAILURE_REDIRECT_MS = 1500;

/**
 * /oauth/github and /oauth/linuxdo. A "bind" reply links the account (→ /setting); otherwise the
 * user is logged in (→ the third-party landing path); on failure the user goes to /setting.
 */
export function OAuthCallbackPage({ provider }: { provider: OAuthProvider }) {
  const { t } = useTranslation('auth');
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const finishLogin = useFinishLogin();
  const { afterThirdPartyLogin } = useLandingPaths();
  const started = useRef(false);
  const [failed, setFailed] = useState(false);
  const code = searchParams.get('code') ?? '';
  const state = searchParams.get('state') ?? '';

  useEffect(() => {
    // The code is single-use: never send it twice (StrictMode runs effects twice in development).
    if (started.current) return;
    started.current = true;
    completeOAuth(provider, code, state)
      .then(async (result) => {
        if (result.bound) {
          notify.success(t('oauth.bound'));
          await navigate('/setting');
        } else {
          await finishLogin(result.user, afterThirdPartyLogin);
        }
      })
      .catch((error: unknown) => {
        setFailed(true);
        if (isApiError(error) && !error.handled) notify.error(error.message);
        notify.error(t('oauth.failed'));
        window.setTimeout(() => void navigate('/setting'), FAILURE_REDIRECT_MS);
      });
  }, [provider, code, state, navigate, finishLogin, afterThirdPartyLogin, t]);

  if (failed) {
    return (
      <Result
        status="error"
        title={t('oauth.failed')}
        extra={
          <Button type="primary" onClick={() => void navigate('/setting')}>
            {t('oauth.continue')}
          </Button>
        }
      />
    );
  }
  return <Result icon={<Spin size="large" />} title={t('oauth.processing')} />;
}
