import { CopyOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Input, Row, Skeleton, Space, Statistic } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCopyText } from '../../../components/use-copy-text';
import { useFormatQuota } from '../../../lib/quota';
import { inviteLink, useAffCodeQuery } from '../api/get-aff-code';
import type { SelfUser } from '../api/get-self';
import { TransferModal } from './transfer-modal';

/** Invite link and invitation earnings, with the transfer to balance. */
export function InvitationCard({ user }: { user: SelfUser }) {
  const { t } = useTranslation('personal');
  const formatQuota = useFormatQuota();
  const copy = useCopyText();
  const affCode = useAffCodeQuery();
  const [transferOpen, setTransferOpen] = useState(false);
  const link = affCode.data ? inviteLink(affCode.data) : '';

  return (
    <Card title={t('invite.title')}>
      {affCode.isPending ? (
        <Skeleton.Input active block />
      ) : affCode.isError ? (
        <Alert type="error" showIcon title={t('invite.linkFailed')} />
      ) : (
        <Space.Compact style={{ width: '100%' }}>
          <Input value={link} readOnly aria-label={t('invite.link')} />
          <Button icon={<CopyOutlined />} onClick={() => void copy(link, t('invite.copied'))}>
            {t('actions.copy')}
          </Button>
        </Space.Compact>
      )}
      <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
        <Col xs={12} sm={8}>
          <Statistic title={t('invite.pending')} value={formatQuota(user.aff_quota)} />
        </Col>
        <Col xs={12} sm={8}>
          <Statistic title={t('invite.total')} value={formatQuota(user.aff_history_quota)} />
        </Col>
        <Col xs={12} sm={8}>
          <Statistic title={t('invite.count')} value={user.aff_count} />
        </Col>
      </Row>
      <Button style={{ marginTop: 16 }} onClick={() => setTransferOpen(true)} disabled={user.aff_quota <= 0}>
        {t('invite.transfer')}
      </Button>
      <TransferModal open={transferOpen} available={user.aff_quota} onClose={() => setTransferOpen(false)} />
    </Card>
  );
}
