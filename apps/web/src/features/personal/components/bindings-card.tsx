import { GithubOutlined, LinkOutlined, MailOutlined, SendOutlined, WechatOutlined } from '@ant-design/icons';
import { Button, Card, Divider, Flex, Tag, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type TelegramAuthData, TelegramLoginButton } from '../../../components/telegram-login-button';
import { showApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { startOAuth } from '../../../lib/oauth';
import { useSiteStatus } from '../../../lib/site-status';
import { bindTelegram } from '../api/bind-accounts';
import type { SelfUser } from '../api/get-self';
import { EmailBindModal } from './email-bind-modal';
import { WechatBindModal } from './wechat-bind-modal';

interface BindingRow {
  key: string;
  icon: ReactNode;
  name: string;
  value: string;
  action: ReactNode;
}

/**
 * The state of every identity binding (e-mail, GitHub, WeChat, Telegram, Linux-DO). Bind buttons
 * for the third-party providers appear only when their status flag is on.
 */
export function BindingsCard({ user, onChanged }: { user: SelfUser; onChanged: () => void }) {
  const { t } = useTranslation('personal');
  const status = useSiteStatus();
  const [emailOpen, setEmailOpen] = useState(false);
  const [wechatOpen, setWechatOpen] = useState(false);

  const boundButton = <Button disabled>{t('bindings.alreadyBound')}</Button>;
  const onTelegram = (data: TelegramAuthData) => {
    bindTelegram(data).then(() => {
      notify.success(t('bindings.bound'));
      onChanged();
    }, showApiError);
  };

  const rows: BindingRow[] = [
    {
      key: 'email',
      icon: <MailOutlined />,
      name: t('bindings.email.name'),
      value: user.email,
      action: (
        <Button onClick={() => setEmailOpen(true)}>
          {user.email ? t('bindings.email.change') : t('bindings.bind')}
        </Button>
      ),
    },
    {
      key: 'github',
      icon: <GithubOutlined />,
      name: 'GitHub',
      value: user.github_id,
      action: user.github_id ? (
        boundButton
      ) : status.github_oauth && status.github_client_id ? (
        <Button onClick={() => startOAuth('github', status.github_client_id as string).catch(showApiError)}>
          {t('bindings.bind')}
        </Button>
      ) : null,
    },
    {
      key: 'wechat',
      icon: <WechatOutlined />,
      name: t('bindings.wechat.name'),
      value: user.wechat_id,
      action: user.wechat_id ? (
        boundButton
      ) : status.wechat_login ? (
        <Button onClick={() => setWechatOpen(true)}>{t('bindings.bind')}</Button>
      ) : null,
    },
    {
      key: 'telegram',
      icon: <SendOutlined />,
      name: 'Telegram',
      value: user.telegram_id,
      action: user.telegram_id ? (
        boundButton
      ) : status.telegram_oauth && status.telegram_bot_name ? (
        <TelegramLoginButton botName={status.telegram_bot_name} onAuth={onTelegram} />
      ) : null,
    },
    {
      key: 'linuxdo',
      icon: <LinkOutlined />,
      name: 'Linux DO',
      value: user.linux_do_id,
      action: user.linux_do_id ? (
        boundButton
      ) : status.linuxdo_oauth && status.linuxdo_client_id ? (
        <Button onClick={() => startOAuth('linuxdo', status.linuxdo_client_id as string).catch(showApiError)}>
          {t('bindings.bind')}
        </Button>
      ) : null,
    },
  ];

  return (
    <Card title={t('bindings.title')}>
      {rows.map((row, index) => (
        <div key={row.key} data-testid={`binding-${row.key}`}>
          {index > 0 ? <Divider style={{ margin: '12px 0' }} /> : null}
          <Flex gap={12} align="center" justify="space-between" wrap>
            <Flex gap={12} align="center" wrap>
              {row.icon}
              <Typography.Text strong>{row.name}</Typography.Text>
              {row.value ? <Tag color="green">{row.value}</Tag> : <Tag>{t('bindings.unbound')}</Tag>}
            </Flex>
            {row.action}
          </Flex>
        </div>
      ))}
      <EmailBindModal open={emailOpen} onClose={() => setEmailOpen(false)} onBound={onChanged} />
      {status.wechat_login ? (
        <WechatBindModal
          open={wechatOpen}
          qrCodeUrl={status.wechat_qrcode}
          onClose={() => setWechatOpen(false)}
          onBound={onChanged}
        />
      ) : null}
    </Card>
  );
}
