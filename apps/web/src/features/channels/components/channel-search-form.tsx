import { SearchOutlined } from '@ant-design/icons';
import { Button, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useChannelGroupsQuery } from '../api/get-channels';

export interface ChannelSearchValues {
  keyword: string;
  model: string;
  group: string;
}

/** Search by keyword (id, name, key), by model and by group. */
export function ChannelSearchForm({ onSearch }: { onSearch: (values: ChannelSearchValues) => void }) {
  const { t } = useTranslation('channels');
  const groups = useChannelGroupsQuery();
  return (
    <Form<ChannelSearchValues>
      layout="inline"
      initialValues={{ keyword: '', model: '', group: '' }}
      onFinish={(values) =>
        onSearch({ keyword: values.keyword ?? '', model: values.model ?? '', group: values.group ?? '' })
      }
      style={{ rowGap: 8 }}
    >
      <Form.Item name="keyword">
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('search.keyword')}
          style={{ width: 240 }}
        />
      </Form.Item>
      <Form.Item name="model">
        <Input allowClear placeholder={t('search.model')} style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="group">
        <Select
          style={{ width: 150 }}
          aria-label={t('search.group')}
          loading={groups.isPending}
          options={[
            { value: '', label: t('search.allGroups') },
            ...(groups.data ?? []).map((group) => ({ value: group, label: group })),
          ]}
        />
      </Form.Item>
      <Button type="primary" htmlType="submit">
        {t('search.submit')}
      </Button>
    </Form>
  );
}
