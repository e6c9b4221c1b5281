import { Button, Col, Result, Row, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSelfQuery } from '../api/get-self';
import { BindingsCard } from '../components/bindings-card';
import { InvitationCard } from '../components/invitation-card';
import { NotificationCard } from '../components/notification-card';
import { ProfileCard } from '../components/profile-card';
import { SecurityCard } from '../components/security-card';

/** The "personal" tab of /setting: profile, balance, invitations, bindings, notifications, security. */
export function PersonalSettingsPage() {
  const { t } = useTranslation('personal');
  const self = useSelfQuery();

  if (self.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (self.isError) {
    return (
      <Result
        status="error"
        title={t('page.loadFailed')}
        subTitle={self.error.message}
        extra={<Button onClick={() => void self.refetch()}>{t('actions.retry')}</Button>}
      />
    );
  }

  const user = self.data;
  return (
    <Row gutter={[16, 16]}>
      <Col span={24}>
        <ProfileCard user={user} />
      </Col>
      <Col xs={24} lg={12}>
        <InvitationCard user={user} />
      </Col>
      <Col xs={24} lg={12}>
        <BindingsCard user={user} onChanged={() => void self.refetch()} />
      </Col>
      <Col xs={24} lg={12}>
        <NotificationCard
          key={typeof user.setting === 'string' ? user.setting : JSON.stringify(user.setting ?? null)}
          user={user}
        />
      </Col>
      <Col xs={24} lg={12}>
        <SecurityCard username={user.username} />
      </Col>
    </Row>
  );
}
