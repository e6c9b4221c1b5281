import { Alert, Button, Card, Col, DatePicker, Flex, Form, Input, Row, Select, Statistic } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAdminRole } from '../../../lib/access';
import { useFormatQuota } from '../../../lib/quota';
import { useSessionUser } from '../../../lib/session';
import { useSiteStatus } from '../../../lib/site-status';
import { type QuotaDataQuery, useQuotaDataQuery } from '../api/get-quota-data';
import { buildDashboardData, GRANULARITIES, type Granularity, toGranularity } from '../components/chart-data';
import { DashboardCharts } from '../components/dashboard-charts';

/**
 * The range the page opens with, after the granularity as new-api's console does: the last day for
 * hours, the last 7 days for days, the last 30 days for weeks; each ends an hour from now.
 */
function defaultRange(granularity: Granularity): { start: number; end: number } {
  const days = granularity === 'hour' ? 1 : granularity === 'day' ? 7 : 30;
  return {
    start: dayjs().subtract(days, 'day').startOf('hour').unix(),
    end: dayjs().add(1, 'hour').unix(),
  };
}

interface FormValues {
  range: [Dayjs, Dayjs];
  username?: string;
}

/** /detail — quota and calls over time by model, with totals; admins may pick one user. */
export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const user = useSessionUser();
  const admin = isAdminRole(user?.role ?? 0);
  const status = useSiteStatus();
  const formatQuota = useFormatQuota();
  const [granularity, setGranularity] = useState<Granularity>(() =>
    toGranularity(status.data_export_default_time),
  );
  const [range, setRange] = useState<Omit<QuotaDataQuery, 'granularity'>>(() => ({
    ...defaultRange(granularity),
    username: '',
  }));
  const query = { ...range, granularity };
  const data = useQuotaDataQuery(query, admin);
  const chart = useMemo(() => buildDashboardData(data.data ?? [], granularity), [data.data, granularity]);
  const hours = Math.max(1, (query.end - query.start) / 3600);

  return (
    <Flex vertical gap={16}>
      <Card title={t('title')}>
        <Form<FormValues>
          layout="inline"
          style={{ rowGap: 8 }}
          initialValues={{ range: [dayjs.unix(query.start), dayjs.unix(query.end)], username: '' }}
          onFinish={(values) => {
            const next = {
              start: values.range[0].unix(),
              end: values.range[1].unix(),
              username: values.username ?? '',
            };
            const same =
              next.start === range.start && next.end === range.end && next.username === range.username;
            // The same range again means "refresh".
            if (same) void data.refetch();
            else setRange(next);
          }}
        >
          <Form.Item
            name="range"
            label={t('filters.time')}
            rules={[{ required: true, message: t('filters.timeRequired') }]}
          >
            <DatePicker.RangePicker showTime />
          </Form.Item>
          <Form.Item label={t('filters.granularity')}>
            <Select<Granularity>
              aria-label={t('filters.granularity')}
              value={granularity}
              onChange={setGranularity}
              style={{ width: 100 }}
              options={GRANULARITIES.map((value) => ({ value, label: t(`granularity.${value}`) }))}
            />
          </Form.Item>
          {admin ? (
            <Form.Item name="username">
              <Input allowClear aria-label={t('filters.username')} placeholder={t('filters.username')} />
            </Form.Item>
          ) : null}
          <Button type="primary" htmlType="submit" loading={data.isFetching}>
            {t('filters.search')}
          </Button>
        </Form>
      </Card>
      {data.isError ? (
        <Alert type="error" showIcon title={t('loadFailed')} description={data.error.message} />
      ) : null}
      <Row gutter={[16, 16]}>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic
              title={t('totals.quota')}
              value={formatQuota(chart.totals.quota)}
              loading={data.isPending}
            />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic title={t('totals.count')} value={chart.totals.count} loading={data.isPending} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic title={t('totals.tokens')} value={chart.totals.tokens} loading={data.isPending} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic
              title={t('totals.perHour')}
              value={(chart.totals.count / hours).toFixed(2)}
              loading={data.isPending}
            />
          </Card>
        </Col>
      </Row>
      <DashboardCharts data={chart} />
    </Flex>
  );
}
