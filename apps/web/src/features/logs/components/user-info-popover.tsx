import { Avatar, Descriptions, Popover, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../lib/quota';
import { useUserInfoQuery } from '../api/get-user-info';

function UserInfo({ userId }: { userId: number }) {
  const { t } = useTranslation('logs');
  const formatQuota = useFormatQuota();
  const info = useUserInfoQuery(userId, true);
  if (info.isPending) return <Spin size="small" />;
  if (!info.data) return <Typography.Text type="danger">{info.error?.message}</Typography.Text>;
  return (
    <Descriptions column={1} size="small" style={{ minWidth: 200 }}>
      <Descriptions.Item label={t('userInfo.username')}>{info.data.username}</Descriptions.Item>
      <Descriptions.Item label={t('userInfo.quota')}>{formatQuota(info.data.quota)}</Descriptions.Item>
      <Descriptions.Item label={t('userInfo.usedQuota')}>
        {formatQuota(info.data.used_quota)}
      </Descriptions.Item>
      <Descriptions.Item label={t('userInfo.requests')}>{info.data.request_count}</Descriptions.Item>
    </Descriptions>
  );
}

/** The user's avatar (first letter); clicking it shows the user's quota figures (admin only). */
export function UserInfoPopover({ userId, username }: { userId: number; username: string }) {
  const { t } = useTranslation('logs');
  const [open, setOpen] = useState(false);
  return (
    <Popover
      trigger="click"
      open={open}
      onOpenChange={setOpen}
      title={t('userInfo.title')}
      content={open ? <UserInfo userId={userId} /> : null}
    >
      <span style={{ cursor: 'pointer', display: 'inline-flex', alignItems: 'center', gap: 6 }}>
        <Avatar
          size="small"
          style={{ backgroundColor: '#1677ff' }}
          aria-label={t('userInfo.open', { username })}
        >
          {(username || '?').slice(0, 1).toUpperCase()}
        </Avatar>
        <span>{username}</span>
      </span>
    </Popover>
  );
}
