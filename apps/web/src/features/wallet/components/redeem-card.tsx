import { GiftOutlined, LinkOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useFormatQuota } from '../../../lib/quota';
import { useSiteStatus } from '../../../lib/site-status';
import { useRedeemCodeMutation } from '../api/redeem-code';

/** Redeem-code input, and a button to get a code when a top-up link is configured. */
export function RedeemCard() {
  const { t } = useTranslation('wallet');
  const status = useSiteStatus();
  const formatQuota = useFormatQuota();
  const redeem = useRedeemCodeMutation();
  const [code, setCode] = useState('');
  const [lastAdded, setLastAdded] = useState<number | null>(null);
  const topUpLink = status.top_up_link ?? '';

  const submit = () => {
    const key = code.trim();
    if (key === '') {
      notify.info(t('redeem.required'));
      return;
    }
    redeem.mutate(key, {
      onSuccess: (quota) => {
        notify.success(t('redeem.success'));
        setLastAdded(Number(quota) || 0);
        setCode('');
      },
      onError: (error) => {
        // success:false carries the server's message; anything else was unexpected.
        if (isApiError(error) && error.kind === 'envelope') notify.error(error.message);
        else if (!isApiError(error) || !error.handled) notify.error(t('redeem.requestFailed'));
      },
    });
  };

  const openTopUpLink = () => {
    if (!topUpLink) {
      notify.error(t('redeem.noTopUpLink'));
      return;
    }
    window.open(topUpLink, '_blank', 'noopener');
  };

  return (
    <Card title={t('redeem.title')}>
      <Flex gap={8} wrap>
        <Input
          aria-label={t('redeem.placeholder')}
          placeholder={t('redeem.placeholder')}
          prefix={<GiftOutlined />}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          onPressEnter={submit}
          allowClear
          style={{ flex: '1 1 240px' }}
        />
        <Button type="primary" loading={redeem.isPending} onClick={submit}>
          {t('redeem.submit')}
        </Button>
        {topUpLink ? (
          <Button icon={<LinkOutlined />} onClick={openTopUpLink}>
            {t('redeem.getCode')}
          </Button>
        ) : null}
      </Flex>
      {lastAdded !== null ? (
        <Typography.Paragraph type="success" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('redeem.added', { quota: formatQuota(lastAdded) })}
        </Typography.Paragraph>
      ) : null}
    </Card>
  );
}
