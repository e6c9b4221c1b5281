import { KeyOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';

export interface TokenSearchValues {
  keyword: string;
  token: string;
}

/** Search by token name and by key. */
export function TokenSearchForm({ onSearch }: { onSearch: (values: TokenSearchValues) => void }) {
  const { t } = useTranslation('tokens');
  return (
    <Form<TokenSearchValues>
      layout="inline"
      initialValues={{ keyword: '', token: '' }}
      onFinish={(values) => onSearch({ keyword: values.keyword ?? '', token: values.token ?? '' })}
      style={{ rowGap: 8 }}
    >
      <Form.Item name="keyword">
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('search.keyword')}
          style={{ width: 200 }}
        />
      </Form.Item>
      <Form.Item name="token">
        <Input allowClear prefix={<KeyOutlined />} placeholder={t('search.token')} style={{ width: 200 }} />
      </Form.Item>
      <Button type="primary" htmlType="submit">
        {t('search.submit')}
      </Button>
    </Form>
  );
}
