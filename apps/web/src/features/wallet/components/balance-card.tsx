import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../lib/quota';
import { useWalletUserQuery } from '../api/get-self';

/** Balance, used quota and request count of the signed-in user. */
export function BalanceCard() {
  const { t } = useTranslation('wallet');
  const formatQuota = useFormatQuota();
  const self = useWalletUserQuery();
  const value = (pick: (user: NonNullable<typeof self.data>) => string | number) =>
    self.data ? pick(self.data) : '-';
  return (
    <Card title={t('balance.title')} loading={self.isPending}>
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={8}>
          <Statistic
            title={t('balance.current')}
            value={value((user) => formatQuota(user.quota))}
            valueStyle={{ color: '#1677ff' }}
          />
        </Col>
        <Col xs={12} sm={8}>
          <Statistic title={t('balance.used')} value={value((user) => formatQuota(user.used_quota))} />
        </Col>
        <Col xs={12} sm={8}>
          <Statistic title={t('balance.requests')} value={value((user) => user.request_count)} />
        </Col>
      </Row>
    </Card>
  );
}
