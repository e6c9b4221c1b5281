import type { TokenView } from '@switchyard/shared';
import { Table, type TableColumnsType, type TablePaginationConfig, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { PINNED_RIGHT } from '../../../components/pinned-column';
import { useFormatQuota } from '../../../lib/quota';
import { TokenRowActions } from './token-row-actions';
import { TokenStatusTag } from './token-status-tag';

const formatTime = (seconds: number) => dayjs.unix(seconds).format('YYYY-MM-DD HH:mm:ss');

/** The token list: name, status and group, used and remaining quota, times, actions. */
export function TokenTable({
  tokens,
  loading,
  pagination,
  selectedIds,
  onSelect,
  onEdit,
}: {
  tokens: TokenView[];
  loading: boolean;
  pagination: TablePaginationConfig;
  selectedIds: number[];
  onSelect: (ids: number[], rows: TokenView[]) => void;
  onEdit: (id: number) => void;
}) {
  const { t } = useTranslation('tokens');
  const formatQuota = useFormatQuota();

  const columns: TableColumnsType<TokenView> = [
    { title: t('columns.name'), dataIndex: 'name' },
    {
      title: t('columns.status'),
      key: 'status',
      render: (_value, token) => <TokenStatusTag token={token} />,
    },
    { title: t('columns.usedQuota'), dataIndex: 'used_quota', render: (quota: number) => formatQuota(quota) },
    {
      title: t('columns.remainQuota'),
      key: 'remain',
      render: (_value, token) =>
        token.unlimited_quota ? (
          <Typography.Text type="success">{t('columns.unlimited')}</Typography.Text>
        ) : (
          formatQuota(token.remain_quota)
        ),
    },
    { title: t('columns.createdTime'), dataIndex: 'created_time', render: formatTime },
    {
      title: t('columns.expiredTime'),
      dataIndex: 'expired_time',
      render: (seconds: number) => (seconds === -1 ? t('columns.never') : formatTime(seconds)),
    },
    {
      title: t('columns.actions'),
      key: 'actions',
      ...PINNED_RIGHT,
      render: (_value, token) => <TokenRowActions token={token} onEdit={() => onEdit(token.id)} />,
    },
  ];

  return (
    <Table<TokenView>
      rowKey="id"
      columns={columns}
      dataSource={tokens}
      loading={loading}
      pagination={pagination}
      rowSelection={{
        selectedRowKeys: selectedIds,
        onChange: (keys, rows) => onSelect(keys as number[], rows),
      }}
      scroll={{ x: 'max-content' }}
      size="middle"
    />
  );
}
