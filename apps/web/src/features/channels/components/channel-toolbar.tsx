import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Flex, Popconfirm, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { showApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import {
  deleteChannels,
  deleteDisabledChannels,
  fixChannels,
  testAllChannels,
  updateAllBalances,
} from '../api/channel-operations';
import { useInvalidateChannels } from '../api/save-channel';

export interface ChannelListSwitches {
  idSort: boolean;
  tagMode: boolean;
  batchMode: boolean;
}

/** Toolbar: add, test all, update all balances, delete disabled, refresh, fix, batch tools and switches. */
export function ChannelToolbar({
  switches,
  onSwitch,
  selectedIds,
  onRefresh,
  onBatchTag,
}: {
  switches: ChannelListSwitches;
  onSwitch: (changes: Partial<ChannelListSwitches>) => void;
  selectedIds: number[];
  onRefresh: () => Promise<unknown>;
  onBatchTag: () => void;
}) {
  const { t } = useTranslation('channels');
  const navigate = useNavigate();
  const invalidate = useInvalidateChannels();
  const [busy, setBusy] = useState<string | null>(null);

  const run = (name: string, call: () => Promise<string>) => {
    setBusy(name);
    call()
      .then((message) => {
        notify.success(message);
        return invalidate();
      })
      .catch(showApiError)
      .finally(() => setBusy(null));
  };

  const switchItem = (key: keyof ChannelListSwitches, label: string) => (
    <Flex gap={6} align="center">
      <Switch
        size="small"
        checked={switches[key]}
        onChange={(value) => onSwitch({ [key]: value })}
        aria-label={label}
      />
      <Typography.Text>{label}</Typography.Text>
    </Flex>
  );

  return (
    <Flex vertical gap={8} style={{ marginBottom: 16 }}>
      <Flex wrap gap={8}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate('/channel/add')}>
          {t('list.add')}
        </Button>
        <Popconfirm
          title={t('list.testAll')}
          onConfirm={() => run('test', () => testAllChannels().then(() => t('list.testAllStarted')))}
        >
          <Button loading={busy === 'test'}>{t('list.testAll')}</Button>
        </Popconfirm>
        <Popconfirm
          title={t('list.updateAllBalances')}
          onConfirm={() => run('balance', () => updateAllBalances().then(() => t('list.balancesUpdated')))}
        >
          <Button loading={busy === 'balance'}>{t('list.updateAllBalances')}</Button>
        </Popconfirm>
        <Popconfirm
          title={t('list.deleteDisabledConfirm')}
          okButtonProps={{ danger: true }}
          onConfirm={() =>
            run('disabled', () =>
              deleteDisabledChannels().then((count) => t('list.deletedDisabled', { count })),
            )
          }
        >
          <Button danger loading={busy === 'disabled'}>
            {t('list.deleteDisabled')}
          </Button>
        </Popconfirm>
        <Button
          icon={<ReloadOutlined />}
          onClick={() => onRefresh().catch(() => notify.error(t('list.refreshFailed')))}
        >
          {t('list.refresh')}
        </Button>
        <Popconfirm
          title={t('list.fixConfirm')}
          onConfirm={() => run('fix', () => fixChannels().then((count) => t('list.fixed', { count })))}
        >
          <Button loading={busy === 'fix'}>{t('list.fix')}</Button>
        </Popconfirm>
        <Button onClick={onBatchTag}>{t('list.batchTag')}</Button>
        {switches.batchMode ? (
          <Popconfirm
            title={t('list.batchDeleteConfirm')}
            okButtonProps={{ danger: true }}
            onConfirm={() => {
              if (selectedIds.length === 0) {
                notify.error(t('list.selectForDelete'));
                return;
              }
              run('batch', () =>
                deleteChannels(selectedIds).then((count) => t('list.batchDeleted', { count })),
              );
            }}
          >
            <Button danger loading={busy === 'batch'}>
              {t('list.batchDelete')}
            </Button>
          </Popconfirm>
        ) : null}
      </Flex>
      <Flex wrap gap={16}>
        {switchItem('idSort', t('list.idSort'))}
        {switchItem('tagMode', t('list.tagMode'))}
        {switchItem('batchMode', t('list.batchMode'))}
      </Flex>
    </Flex>
  );
}
