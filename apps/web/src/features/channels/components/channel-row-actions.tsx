import { DownOutlined } from '@ant-design/icons';
import type { ChannelView } from '@switchyard/shared';
import { Button, Dropdown, Popconfirm, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError, showApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { copyChannel, setTagStatus, testChannel } from '../api/channel-operations';
import {
  useDeleteChannelMutation,
  useInvalidateChannels,
  useUpdateChannelMutation,
} from '../api/save-channel';
import { splitList } from './channel-rules';

/** Row actions of a channel: test (optionally with a model), delete, enable/disable, edit, copy. */
export function ChannelRowActions({ channel }: { channel: ChannelView }) {
  const { t } = useTranslation('channels');
  const invalidate = useInvalidateChannels();
  const update = useUpdateChannelMutation();
  const remove = useDeleteChannelMutation();
  const [testing, setTesting] = useState(false);
  const done = () => notify.success(t('actions.done'));

  const test = (model?: string) => {
    setTesting(true);
    testChannel(channel.id, model)
      .then(({ time }) => notify.success(t('actions.tested', { name: channel.name, time: time.toFixed(2) })))
      .catch(showApiError)
      .finally(() => {
        setTesting(false);
        void invalidate();
      });
  };

  const copy = () =>
    copyChannel(channel.id)
      .then(() => {
        notify.success(t('actions.copied'));
        return invalidate();
      })
      .catch((error: unknown) => {
        if (isApiError(error) && error.handled) return;
        const message = error instanceof Error ? error.message : String(error);
        notify.error(
          message === '渠道不存在' ? t('actions.notFound') : `${t('actions.copyFailed')}${message}`,
        );
      });

  const enabled = channel.status === 1;
  const models = splitList(channel.models);

  return (
    <Space size={4} wrap>
      <Space.Compact>
        <Button size="small" loading={testing} onClick={() => test()}>
          {t('actions.test')}
        </Button>
        <Dropdown
          trigger={['click']}
          menu={{
            items: models.map((model) => ({ key: model, label: model })),
            onClick: ({ key }) => test(key),
            style: { maxHeight: 320, overflowY: 'auto' },
          }}
        >
          <Button
            size="small"
            icon={<DownOutlined />}
            aria-label={t('actions.testModel')}
            disabled={testing}
          />
        </Dropdown>
      </Space.Compact>
      <Popconfirm
        title={t('actions.deleteConfirm')}
        description={t('actions.deleteWarning')}
        okButtonProps={{ danger: true }}
        onConfirm={() =>
          remove
            .mutateAsync(channel.id)
            .then(done)
            .catch(() => undefined)
        }
      >
        <Button size="small" danger>
          {t('actions.delete')}
        </Button>
      </Popconfirm>
      <Button
        size="small"
        disabled={update.isPending}
        onClick={() =>
          update
            .mutateAsync({ id: channel.id, status: enabled ? 2 : 1 })
            .then(done)
            .catch(() => undefined)
        }
      >
        {enabled ? t('actions.disable') : t('actions.enable')}
      </Button>
      <Link to={`/channel/edit/${channel.id}`}>
        <Button size="small">{t('actions.edit')}</Button>
      </Link>
      <Popconfirm
        title={t('actions.copyConfirm')}
        description={t('actions.copyDescription')}
        onConfirm={copy}
      >
        <Button size="small">{t('actions.copy')}</Button>
      </Popconfirm>
    </Space>
  );
}

/** Actions of a tag row: enable all, disable all, edit tag. */
export function TagRowActions({ tag, onEdit }: { tag: string; onEdit: () => void }) {
  const { t } = useTranslation('channels');
  const invalidate = useInvalidateChannels();
  const [busy, setBusy] = useState(false);
  const setStatus = (enabled: boolean) => {
    setBusy(true);
    setTagStatus(tag, enabled)
      .then(() => {
        notify.success(t('actions.done'));
        return invalidate();
      })
      .catch(showApiError)
      .finally(() => setBusy(false));
  };
  return (
    <Space size={4} wrap>
      <Button size="small" disabled={busy} onClick={() => setStatus(true)}>
        {t('actions.enableAll')}
      </Button>
      <Button size="small" disabled={busy} onClick={() => setStatus(false)}>
        {t('actions.disableAll')}
      </Button>
      <Button size="small" onClick={onEdit}>
        {t('actions.editTag')}
      </Button>
    </Space>
  );
}
