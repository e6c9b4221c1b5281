import { CopyOutlined, PlusOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import type { RedemptionView } from '@switchyard/shared';
import { Alert, Button, Card, Flex, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCopyText } from '../../../components/use-copy-text';
import { notify } from '../../../lib/notify';
import { useTableParams } from '../../../lib/use-table-params';
import { useRedemptionsQuery } from '../api/get-redemptions';
import { RedemptionEditModal } from '../components/redemption-edit-modal';
import { RedemptionTable } from '../components/redemption-table';

/** /redemption — redemption code management (admin). */
export function RedemptionListPage() {
  const { t } = useTranslation('redemptions');
  const copy = useCopyText();
  const { params, resetPage, pagination } = useTableParams();
  const [keyword, setKeyword] = useState('');
  const [selected, setSelected] = useState<RedemptionView[]>([]);
  const [editor, setEditor] = useState<{ open: boolean; id: number | null }>({ open: false, id: null });
  const query = useRedemptionsQuery({ ...params, keyword });

  const copySelected = () => {
    if (selected.length === 0) {
      notify.error(t('list.selectFirst'));
      return;
    }
    const text = selected.map((code) => `${code.name}    ${code.key}`).join('\n');
    void copy(text, t('list.copiedSelected', { count: selected.length }));
  };

  return (
    <Card title={t('list.title')}>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
        <Form<{ keyword: string }>
          layout="inline"
          initialValues={{ keyword: '' }}
          onFinish={(values) => {
            setKeyword(values.keyword ?? '');
            resetPage();
          }}
          style={{ rowGap: 8 }}
        >
          <Form.Item name="keyword">
            <Input
              allowClear
              prefix={<SearchOutlined />}
              placeholder={t('list.search')}
              style={{ width: 240 }}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit">
            {t('list.submit')}
          </Button>
        </Form>
        <Flex gap={8} wrap>
          <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()}>
            {t('list.refresh')}
          </Button>
          <Button icon={<CopyOutlined />} onClick={copySelected}>
            {t('list.copySelected')}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditor({ open: true, id: null })}>
            {t('list.add')}
          </Button>
        </Flex>
      </Flex>
      {query.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('list.loadFailed')}
          description={query.error.message}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <RedemptionTable
        codes={query.data?.items ?? []}
        loading={query.isFetching}
        pagination={pagination(query.data?.total ?? 0)}
        selected={selected}
        onSelect={setSelected}
        onEdit={(id) => setEditor({ open: true, id })}
      />
      <RedemptionEditModal
        open={editor.open}
        id={editor.id}
        onClose={() => setEditor((current) => ({ ...current, open: false }))}
      />
    </Card>
  );
}
