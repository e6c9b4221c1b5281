import { SearchOutlined } from '@ant-design/icons';
import { Button, DatePicker, Form, Input } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { TaskFilters } from '../api/task-types';

interface FormValues {
  range: [Dayjs | null, Dayjs | null] | null;
  id: string;
  channelId: string;
}

/** Time range, task id and (admin) channel id. */
export function TaskFiltersForm({
  admin,
  initial,
  idLabel,
  onSearch,
}: {
  admin: boolean;
  initial: TaskFilters;
  idLabel: string;
  onSearch: (filters: TaskFilters) => void;
}) {
  const { t } = useTranslation('tasks');
  return (
    <Form<FormValues>
      layout="inline"
      style={{ rowGap: 8, marginBottom: 16 }}
      initialValues={{
        range: [
          initial.start ? dayjs.unix(initial.start) : null,
          initial.end ? dayjs.unix(initial.end) : null,
        ],
        id: initial.id,
        channelId: initial.channelId,
      }}
      onFinish={(values) =>
        onSearch({
          id: values.id ?? '',
          channelId: (values.channelId ?? '').replace(/\D/g, ''),
          start: values.range?.[0]?.unix() ?? 0,
          end: values.range?.[1]?.unix() ?? 0,
        })
      }
    >
      <Form.Item name="range" label={t('filters.time')}>
        <DatePicker.RangePicker showTime allowEmpty={[true, true]} />
      </Form.Item>
      <Form.Item name="id">
        <Input allowClear aria-label={idLabel} placeholder={idLabel} />
      </Form.Item>
      {admin ? (
        <Form.Item name="channelId">
          <Input allowClear aria-label={t('filters.channel')} placeholder={t('filters.channel')} />
        </Form.Item>
      ) : null}
      <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
        {t('filters.search')}
      </Button>
    </Form>
  );
}
