import { CopyOutlined, KeyOutlined } from '@ant-design/icons';
import { Button, Card, Divider, Flex, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCopyText } from '../../../components/use-copy-text';
import { useGenerateAccessTokenMutation } from '../api/generate-access-token';
import { ChangePasswordModal } from './change-password-modal';
import { DeleteAccountModal } from './delete-account-modal';

/** System access token, password change and account deletion. */
export function SecurityCard({ username }: { username: string }) {
  const { t } = useTranslation('personal');
  const copy = useCopyText();
  const generate = useGenerateAccessTokenMutation();
  const [accessToken, setAccessToken] = useState<string | null>(null);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);

  const onGenerate = async () => {
    const token = await generate.mutateAsync();
    setAccessToken(token);
    await copy(token, t('security.token.copied'));
  };

  return (
    <Card title={t('security.title')}>
      <Typography.Title level={5}>{t('security.token.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('security.token.help')}</Typography.Paragraph>
      <Flex vertical gap={8}>
        {accessToken ? (
          <Space.Compact style={{ width: '100%' }}>
            <Input value={accessToken} readOnly data-testid="access-token" />
            <Button
              icon={<CopyOutlined />}
              onClick={() => void copy(accessToken, t('security.token.copiedOnly'))}
            >
              {t('actions.copy')}
            </Button>
          </Space.Compact>
        ) : null}
        <div>
          <Button
            icon={<KeyOutlined />}
            loading={generate.isPending}
            onClick={() => onGenerate().catch(() => undefined)}
          >
            {t('security.token.generate')}
          </Button>
        </div>
      </Flex>
      <Divider />
      <Flex gap={8} wrap>
        <Button onClick={() => setPasswordOpen(true)}>{t('security.password.title')}</Button>
        <Button danger onClick={() => setDeleteOpen(true)}>
          {t('security.delete.title')}
        </Button>
      </Flex>
      <ChangePasswordModal open={passwordOpen} onClose={() => setPasswordOpen(false)} />
      <DeleteAccountModal open={deleteOpen} username={username} onClose={() => setDeleteOpen(false)} />
    </Card>
  );
}
