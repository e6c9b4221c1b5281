import type { RedemptionView } from '@switchyard/shared';
import { Table, type TableColumnsType, type TablePaginationConfig, Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { PINNED_RIGHT } from '../../../components/pinned-column';
import { useFormatQuota } from '../../../lib/quota';
import { RedemptionRowActions } from './redemption-row-actions';

const STATUS_COLORS: Record<number, string> = { 1: 'green', 2: 'red', 3: 'default' };

/** Codes: ID, name, status, quota, created time, redeemer ID, actions. */
export function RedemptionTable({
  codes,
  loading,
  pagination,
  selected,
  onSelect,
  onEdit,
}: {
  codes: RedemptionView[];
  loading: boolean;
  pagination: TablePaginationConfig;
  selected: RedemptionView[];
  onSelect: (rows: RedemptionView[]) => void;
  onEdit: (id: number) => void;
}) {
  const { t } = useTranslation('redemptions');
  const formatQuota = useFormatQuota();
  const columns: TableColumnsType<RedemptionView> = [
    { title: t('columns.id'), dataIndex: 'id', width: 80 },
    { title: t('columns.name'), dataIndex: 'name' },
    {
      title: t('columns.status'),
      dataIndex: 'status',
      render: (status: number) => (
        <Tag color={STATUS_COLORS[status] ?? 'default'}>
          {status in STATUS_COLORS ? t(`status.${status}`) : t('status.unknown')}
        </Tag>
      ),
    },
    { title: t('columns.quota'), dataIndex: 'quota', render: (quota: number) => formatQuota(quota) },
    {
      title: t('columns.createdTime'),
      dataIndex: 'created_time',
      render: (seconds: number) => dayjs.unix(seconds).format('YYYY-MM-DD HH:mm:ss'),
    },
    {
      title: t('columns.usedUserId'),
      dataIndex: 'used_user_id',
      render: (id: number) => (id === 0 ? t('columns.nobody') : id),
    },
    {
      title: t('columns.actions'),
      key: 'actions',
      ...PINNED_RIGHT,
      render: (_value, code) => <RedemptionRowActions code={code} onEdit={() => onEdit(code.id)} />,
    },
  ];
  return (
    <Table<RedemptionView>
      rowKey="id"
      columns={columns}
      dataSource={codes}
      loading={loading}
      pagination={pagination}
      rowSelection={{
        selectedRowKeys: selected.map((code) => code.id),
        onChange: (_keys, rows) => onSelect(rows),
      }}
      scroll={{ x: 'max-content' }}
      size="middle"
    />
  );
}
