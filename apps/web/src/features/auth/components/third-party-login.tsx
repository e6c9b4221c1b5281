import { GithubOutlined, LinkOutlined, WechatOutlined } from '@ant-design/icons';
import { Button, Divider, Flex } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type TelegramAuthData, TelegramLoginButton } from '../../../components/telegram-login-button';
import { showApiError } from '../../../lib/api-client';
import { useLandingPaths } from '../../../lib/landing';
import { startOAuth } from '../../../lib/oauth';
import { useSiteStatus } from '../../../lib/site-status';
import type { LoginUser } from '../api/auth-types';
import { telegramLogin } from '../api/oauth-login';
import { useFinishLogin } from './use-finish-login';
import { WechatLoginModal } from './wechat-login-modal';

/** Third-party login buttons; each appears only when its status flag is on. */
export function ThirdPartyLogin() {
  const { t } = useTranslation('auth');
  const status = useSiteStatus();
  const finishLogin = useFinishLogin();
  const { afterThirdPartyLogin } = useLandingPaths();
  const [wechatOpen, setWechatOpen] = useState(false);

  const github = status.github_oauth === true && Boolean(status.github_client_id);
  const linuxdo = status.linuxdo_oauth === true && Boolean(status.linuxdo_client_id);
  const wechat = status.wechat_login === true;
  const telegram = status.telegram_oauth === true && Boolean(status.telegram_bot_name);
  if (!github && !linuxdo && !wechat && !telegram) return null;

  const finish = (user: LoginUser) => void finishLogin(user, afterThirdPartyLogin);
  const onTelegram = (data: TelegramAuthData) => {
    telegramLogin(data).then(finish, showApiError);
  };

  return (
    <>
      <Divider plain>{t('login.thirdParty')}</Divider>
      <Flex gap={8} justify="center" wrap>
        {github ? (
          <Button
            icon={<GithubOutlined />}
            onClick={() => startOAuth('github', status.github_client_id as string).catch(showApiError)}
          >
            GitHub
          </Button>
        ) : null}
        {linuxdo ? (
          <Button
            icon={<LinkOutlined />}
            onClick={() => startOAuth('linuxdo', status.linuxdo_client_id as string).catch(showApiError)}
          >
            Linux DO
          </Button>
        ) : null}
        {wechat ? (
          <Button icon={<WechatOutlined />} onClick={() => setWechatOpen(true)}>
            {t('wechat.button')}
          </Button>
        ) : null}
        {telegram ? (
          <TelegramLoginButton botName={status.telegram_bot_name as string} onAuth={onTelegram} />
        ) : null}
      </Flex>
      {wechat ? (
        <WechatLoginModal
          open={wechatOpen}
          qrCodeUrl={status.wechat_qrcode}
          onClose={() => setWechatOpen(false)}
          onLogin={(user) => {
            setWechatOpen(false);
            finish(user);
          }}
        />
      ) : null}
    </>
  );
}
