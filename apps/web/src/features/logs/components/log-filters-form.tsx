import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, DatePicker, Flex, Form, Input, Select, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { LogFilters } from '../api/log-keys';
import { LOG_TYPES } from './log-rules';

interface FormValues {
  range: [Dayjs | null, Dayjs | null] | null;
  tokenName: string;
  modelName: string;
  group: string;
  username: string;
  channel: string;
  requestId: string;
  type: number;
}

/** Default window: from the start of today to one hour ahead. */
export function defaultLogFilters(now = dayjs()): LogFilters {
  return {
    type: 0,
    tokenName: '',
    modelName: '',
    group: '',
    username: '',
    channel: '',
    requestId: '',
    start: now.startOf('day').unix(),
    end: now.add(1, 'hour').unix(),
  };
}

const toForm = (filters: LogFilters): FormValues => ({
  range: [filters.start ? dayjs.unix(filters.start) : null, filters.end ? dayjs.unix(filters.end) : null],
  tokenName: filters.tokenName,
  modelName: filters.modelName,
  group: filters.group,
  username: filters.username,
  channel: filters.channel,
  requestId: filters.requestId,
  type: filters.type,
});

const fromForm = (values: FormValues): LogFilters => ({
  type: values.type ?? 0,
  tokenName: values.tokenName ?? '',
  modelName: values.modelName ?? '',
  group: values.group ?? '',
  username: values.username ?? '',
  channel: (values.channel ?? '').replace(/\D/g, ''),
  requestId: values.requestId ?? '',
  start: values.range?.[0]?.unix() ?? 0,
  end: values.range?.[1]?.unix() ?? 0,
});

/** Time range, token, model, group, (admin) channel and user, request id, and the type filter. */
export function LogFiltersForm({
  admin,
  initial,
  onSearch,
}: {
  admin: boolean;
  initial: LogFilters;
  onSearch: (filters: LogFilters) => void;
}) {
  const { t } = useTranslation('logs');
  const [form] = Form.useForm<FormValues>();
  const field = { style: { marginBottom: 8 } };
  return (
    <Form<FormValues>
      form={form}
      layout="inline"
      initialValues={toForm(initial)}
      onFinish={(values) => onSearch(fromForm(values))}
      style={{ rowGap: 8, marginBottom: 8 }}
    >
      <Form.Item name="range" label={t('filters.time')} {...field}>
        <DatePicker.RangePicker showTime allowEmpty={[true, true]} />
      </Form.Item>
      <Form.Item name="tokenName" {...field}>
        <Input allowClear aria-label={t('filters.tokenName')} placeholder={t('filters.tokenName')} />
      </Form.Item>
      <Form.Item name="modelName" {...field}>
        <Input allowClear aria-label={t('filters.modelName')} placeholder={t('filters.modelName')} />
      </Form.Item>
      <Form.Item name="group" {...field}>
        <Input allowClear aria-label={t('filters.group')} placeholder={t('filters.group')} />
      </Form.Item>
      {admin ? (
        <>
          <Form.Item name="channel" {...field}>
            <Input allowClear aria-label={t('filters.channel')} placeholder={t('filters.channel')} />
          </Form.Item>
          <Form.Item name="username" {...field}>
            <Input allowClear aria-label={t('filters.username')} placeholder={t('filters.username')} />
          </Form.Item>
        </>
      ) : null}
      <Form.Item name="requestId" {...field}>
        <Input allowClear aria-label={t('filters.requestId')} placeholder={t('filters.requestId')} />
      </Form.Item>
      <Form.Item name="type" {...field}>
        <Select
          aria-label={t('filters.type')}
          style={{ width: 120 }}
          options={LOG_TYPES.map((type) => ({ value: type.value, label: t(`types.${type.key}`) }))}
        />
      </Form.Item>
      <Flex gap={8} align="center" wrap style={{ marginBottom: 8 }}>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          {t('filters.search')}
        </Button>
        <Button
          icon={<ReloadOutlined />}
          onClick={() => {
            const reset = defaultLogFilters();
            form.setFieldsValue(toForm(reset));
            onSearch(reset);
          }}
        >
          {t('filters.reset')}
        </Button>
        <Typography.Text type="secondary">{t('filters.retentionHint')}</Typography.Text>
      </Flex>
    </Form>
  );
}
