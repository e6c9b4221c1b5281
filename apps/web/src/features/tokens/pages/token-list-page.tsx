import { CopyOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { TokenView } from '@switchyard/shared';
import { Alert, Button, Card, Flex } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCopyText } from '../../../components/use-copy-text';
import { notify } from '../../../lib/notify';
import { openEndedTotal } from '../../../lib/open-ended-page';
import { useTableParams } from '../../../lib/use-table-params';
import { fullTokenKey } from '../api/get-token';
import { useTokensQuery } from '../api/get-tokens';
import { TokenEditDrawer } from '../components/token-edit-drawer';
import { TokenSearchForm, type TokenSearchValues } from '../components/token-search-form';
import { TokenTable } from '../components/token-table';

/** /token — the user's tokens, with the personal-use notice, search, copy selected and the editor. */
export function TokenListPage() {
  const { t } = useTranslation('tokens');
  const copy = useCopyText();
  const { params, resetPage, pagination } = useTableParams();
  const [filters, setFilters] = useState<TokenSearchValues>({ keyword: '', token: '' });
  const [selected, setSelected] = useState<TokenView[]>([]);
  const [editor, setEditor] = useState<{ open: boolean; id: number | null }>({ open: false, id: null });
  const query = useTokensQuery({ ...params, ...filters });

  const copySelected = async () => {
    if (selected.length === 0) {
      notify.error(t('list.selectFirst'));
      return;
    }
    const text = selected.map((token) => `${token.name}    ${fullTokenKey(token)}`).join('\n');
    await copy(text, t('list.copiedSelected', { count: selected.length }));
  };

  return (
    <Card title={t('list.title')}>
      <Alert type="warning" showIcon title={t('list.notice')} style={{ marginBottom: 16 }} />
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
        <TokenSearchForm
          onSearch={(values) => {
            setFilters(values);
            resetPage();
          }}
        />
        <Flex gap={8} wrap>
          <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()}>
            {t('list.refresh')}
          </Button>
          <Button icon={<CopyOutlined />} onClick={() => void copySelected()}>
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
      <TokenTable
        tokens={query.data ?? []}
        loading={query.isFetching}
        pagination={pagination(openEndedTotal(params.page, params.pageSize, query.data?.length ?? 0))}
        selectedIds={selected.map((token) => token.id)}
        onSelect={(_ids, rows) => setSelected(rows)}
        onEdit={(id) => setEditor({ open: true, id })}
      />
      <TokenEditDrawer
        open={editor.open}
        id={editor.id}
        onClose={() => setEditor((current) => ({ ...current, open: false }))}
      />
    </Card>
  );
}
