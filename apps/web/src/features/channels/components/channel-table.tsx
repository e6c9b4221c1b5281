import type { ChannelView } from '@switchyard/shared';
import { Table, type TableColumnsType, type TablePaginationConfig, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { PINNED_RIGHT } from '../../../components/pinned-column';
import { notify } from '../../../lib/notify';
import { editTag } from '../api/channel-operations';
import { useInvalidateChannels, useUpdateChannelMutation } from '../api/save-channel';
import {
  ChannelStatusTag,
  ChannelTypeTag,
  GroupTags,
  InlineNumber,
  QuotaCell,
  ResponseTimeTag,
} from './channel-cells';
import { PRIORITY_MIN } from './channel-form-rules';
import { ChannelRowActions, TagRowActions } from './channel-row-actions';
import type { ChannelRow } from './channel-rules';

type ChannelOnly = Extract<ChannelRow, { kind: 'channel' }>;
const DISABLED_ROW = 'sy-channel-disabled';

/** The channel list: channels, or in tag mode tag rows whose channels expand below them. */
export function ChannelTable({
  rows,
  loading,
  pagination,
  batchMode,
  selectedIds,
  onSelect,
  onEditTag,
}: {
  rows: ChannelRow[];
  loading: boolean;
  pagination: TablePaginationConfig;
  batchMode: boolean;
  selectedIds: number[];
  onSelect: (ids: number[]) => void;
  onEditTag: (tag: string) => void;
}) {
  const { t } = useTranslation('channels');
  const { token } = theme.useToken();
  const update = useUpdateChannelMutation();
  const invalidate = useInvalidateChannels();
  const saved = () => notify.success(t('actions.saved'));

  const saveChannel = (id: number, field: 'priority' | 'weight', value: number) =>
    update.mutateAsync({ id, [field]: value }).then(saved);
  const saveTag = (tag: string, field: 'priority' | 'weight', value: number) =>
    editTag({ tag, [field]: value })
      .then(saved)
      .then(() => invalidate());

  const channel = (render: (row: ChannelOnly) => React.ReactNode) => (_value: unknown, row: ChannelRow) =>
    row.kind === 'channel' ? render(row) : null;

  const columns: TableColumnsType<ChannelRow> = [
    {
      title: t('columns.id'),
      key: 'id',
      render: (_value, row) => (row.kind === 'channel' ? row.id : <Tag color="purple">{row.tag}</Tag>),
    },
    {
      title: t('columns.name'),
      key: 'name',
      render: (_value, row) =>
        row.kind === 'channel' ? (
          <Typography.Text>{row.name}</Typography.Text>
        ) : (
          <Typography.Text strong>{t('columns.tag', { tag: row.tag })}</Typography.Text>
        ),
    },
    { title: t('columns.group'), key: 'group', render: channel((row) => <GroupTags groups={row.group} />) },
    { title: t('columns.type'), key: 'type', render: channel((row) => <ChannelTypeTag type={row.type} />) },
    {
      title: t('columns.status'),
      key: 'status',
      render: (_value, row) =>
        row.kind === 'channel' ? (
          <ChannelStatusTag channel={row} />
        ) : (
          <Tag color={row.enabled_count > 0 ? 'green' : 'red'}>
            {t('columns.tagCount', { enabled: row.enabled_count, total: row.channel_count })}
          </Tag>
        ),
    },
    {
      title: t('columns.responseTime'),
      key: 'rt',
      render: channel((row) => <ResponseTimeTag channel={row} />),
    },
    { title: t('columns.quota'), key: 'quota', render: channel((row) => <QuotaCell channel={row} />) },
    {
      title: t('columns.priority'),
      key: 'priority',
      render: (_value, row) => (
        <InlineNumber
          key={`${row.rowKey}:${row.priority}`}
          value={row.priority}
          min={PRIORITY_MIN}
          label={t('columns.priority')}
          onSave={(value) =>
            row.kind === 'channel'
              ? saveChannel(row.id, 'priority', value)
              : saveTag(row.tag, 'priority', value)
          }
        />
      ),
    },
    {
      title: t('columns.weight'),
      key: 'weight',
      render: (_value, row) => (
        <InlineNumber
          key={`${row.rowKey}:${row.weight}`}
          value={row.weight}
          min={0}
          label={t('columns.weight')}
          onSave={(value) =>
            row.kind === 'channel' ? saveChannel(row.id, 'weight', value) : saveTag(row.tag, 'weight', value)
          }
        />
      ),
    },
    {
      title: t('columns.actions'),
      key: 'actions',
      ...PINNED_RIGHT,
      render: (_value, row) =>
        row.kind === 'channel' ? (
          <ChannelRowActions channel={row as ChannelView} />
        ) : (
          <TagRowActions tag={row.tag} onEdit={() => onEditTag(row.tag)} />
        ),
    },
  ];

  return (
    <>
      {/* Opaque (the fill over the container colour): the fixed actions cell covers scrolled cells. */}
      <style>{`.${DISABLED_ROW} > td { background: linear-gradient(${token.colorFillSecondary}, ${token.colorFillSecondary}), ${token.colorBgContainer} !important; }`}</style>
      <Table<ChannelRow>
        rowKey="rowKey"
        columns={columns}
        dataSource={rows}
        loading={loading}
        pagination={pagination}
        rowClassName={(row) => (row.kind === 'channel' && row.status !== 1 ? DISABLED_ROW : '')}
        rowSelection={
          batchMode
            ? {
                checkStrictly: true,
                selectedRowKeys: selectedIds.map(String),
                getCheckboxProps: (row) => ({ disabled: row.kind === 'tag' }),
                onChange: (keys) => onSelect(keys.map(Number).filter((id) => Number.isInteger(id))),
              }
            : undefined
        }
        scroll={{ x: 'max-content' }}
        size="middle"
      />
    </>
  );
}
