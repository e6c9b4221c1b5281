import { Alert, Card } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { openEndedTotal } from '../../../lib/open-ended-page';
import { useTableParams } from '../../../lib/use-table-params';
import { useChannelsQuery } from '../api/get-channels';
import { BatchTagModal } from '../components/batch-tag-modal';
import { listPreferences, toRows } from '../components/channel-rules';
import { ChannelSearchForm, type ChannelSearchValues } from '../components/channel-search-form';
import { ChannelTable } from '../components/channel-table';
import { type ChannelListSwitches, ChannelToolbar } from '../components/channel-toolbar';
import { TagEditModal } from '../components/tag-edit-modal';

/** /channel — the admin channel list. */
export function ChannelListPage() {
  const { t } = useTranslation('channels');
  const { params, resetPage, pagination } = useTableParams();
  const [filters, setFilters] = useState<ChannelSearchValues>({ keyword: '', model: '', group: '' });
  const [switches, setSwitches] = useState<ChannelListSwitches>(() => ({
    idSort: listPreferences.idSort(),
    tagMode: listPreferences.tagMode(),
    batchMode: false,
  }));
  const [selectedIds, setSelectedIds] = useState<number[]>([]);
  const [batchTagOpen, setBatchTagOpen] = useState(false);
  const [editingTag, setEditingTag] = useState<string | null>(null);
  const query = useChannelsQuery({
    ...params,
    ...filters,
    idSort: switches.idSort,
    tagMode: switches.tagMode,
  });
  const rows = useMemo(() => toRows(query.data?.channels ?? [], query.data?.tagMode ?? false), [query.data]);

  const onSwitch = (changes: Partial<ChannelListSwitches>) => {
    if (changes.idSort !== undefined) listPreferences.setIdSort(changes.idSort);
    if (changes.tagMode !== undefined) listPreferences.setTagMode(changes.tagMode);
    if (changes.batchMode === false) setSelectedIds([]);
    setSwitches((current) => ({ ...current, ...changes }));
    if (changes.idSort !== undefined || changes.tagMode !== undefined) resetPage();
  };

  return (
    <Card title={t('list.title')}>
      <div style={{ marginBottom: 12 }}>
        <ChannelSearchForm
          onSearch={(values) => {
            setFilters(values);
            resetPage();
          }}
        />
      </div>
      <ChannelToolbar
        switches={switches}
        onSwitch={onSwitch}
        selectedIds={selectedIds}
        onRefresh={() => query.refetch({ throwOnError: true })}
        onBatchTag={() => {
          if (selectedIds.length === 0) notify.error(t('batchTag.selectFirst'));
          else setBatchTagOpen(true);
        }}
      />
      {query.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('list.loadFailed')}
          description={query.error.message}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <ChannelTable
        rows={rows}
        loading={query.isFetching}
        pagination={pagination(openEndedTotal(params.page, params.pageSize, rows.length))}
        batchMode={switches.batchMode}
        selectedIds={selectedIds}
        onSelect={setSelectedIds}
        onEditTag={setEditingTag}
      />
      <BatchTagModal open={batchTagOpen} ids={selectedIds} onClose={() => setBatchTagOpen(false)} />
      <TagEditModal tag={editingTag} onClose={() => setEditingTag(null)} />
    </Card>
  );
}
