import { SearchOutlined } from '@ant-design/icons';
import { Button, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useGroupsQuery } from '../api/get-groups';

export interface UserSearchValues {
  keyword: string;
  group: string;
}

/** Keyword (id, username, e-mail, display name) and group filter. */
export function UserSearchForm({ onSearch }: { onSearch: (values: UserSearchValues) => void }) {
  const { t } = useTranslation('users');
  const groups = useGroupsQuery();
  return (
    <Form<UserSearchValues>
      layout="inline"
      initialValues={{ keyword: '', group: '' }}
      onFinish={(values) => onSearch({ keyword: values.keyword ?? '', group: values.group ?? '' })}
      style={{ rowGap: 8 }}
    >
      <Form.Item name="keyword">
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('search.keyword')}
          style={{ width: 260 }}
        />
      </Form.Item>
      <Form.Item name="group">
        <Select
          style={{ width: 160 }}
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
