import { EditOutlined } from '@ant-design/icons';
import { Avatar, Button, Card, Col, Flex, Row, Statistic, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../lib/quota';
import type { SelfUser } from '../api/get-self';
import { EditProfileModal } from './edit-profile-modal';
import { roleLabelKey } from './role-label';

/** Name, role, group and the balance figures (balance, used quota, request count). */
export function ProfileCard({ user }: { user: SelfUser }) {
  const { t } = useTranslation('personal');
  const formatQuota = useFormatQuota();
  const [editOpen, setEditOpen] = useState(false);
  return (
    <Card>
      <Flex gap={16} align="center" wrap style={{ marginBottom: 16 }}>
        <Avatar size={56} style={{ fontSize: 24 }}>
          {(user.username || '?').charAt(0).toUpperCase()}
        </Avatar>
        <Flex vertical gap={4}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {user.display_name || user.username}
          </Typography.Title>
          <Flex gap={4} wrap>
            <Typography.Text type="secondary">{user.username}</Typography.Text>
            <Tag color={user.role >= 10 ? 'orange' : 'blue'}>{t(roleLabelKey(user.role))}</Tag>
            {user.group ? <Tag>{t('profile.group', { group: user.group })}</Tag> : null}
          </Flex>
        </Flex>
        <Button icon={<EditOutlined />} onClick={() => setEditOpen(true)} style={{ marginLeft: 'auto' }}>
          {t('profile.edit.open')}
        </Button>
      </Flex>
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={8}>
          <Statistic title={t('profile.balance')} value={formatQuota(user.quota)} data-testid="balance" />
        </Col>
        <Col xs={12} sm={8}>
          <Statistic title={t('profile.usedQuota')} value={formatQuota(user.used_quota)} />
        </Col>
        <Col xs={12} sm={8}>
          <Statistic title={t('profile.requestCount')} value={user.request_count} />
        </Col>
      </Row>
      <EditProfileModal open={editOpen} user={user} onClose={() => setEditOpen(false)} />
    </Card>
  );
}
