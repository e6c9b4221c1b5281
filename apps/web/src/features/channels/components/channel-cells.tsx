import { type ChannelView, channelTypeInfo } from '@switchyard/shared';
import { InputNumber, Space, Tag, Tooltip } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { formatDollars, useFormatQuota } from '../../../lib/quota';
import { updateChannelBalance } from '../api/channel-operations';
import { useInvalidateChannels } from '../api/save-channel';
import { autoDisableInfo, responseTimeColor } from './channel-rules';

const STATUS_COLORS: Record<number, string> = { 1: 'green', 2: 'red', 3: 'gold' };
const formatTime = (seconds: number) => dayjs.unix(seconds).format('YYYY-MM-DD HH:mm:ss');

export function ChannelTypeTag({ type }: { type: number }) {
  return <Tag>{channelTypeInfo(type)?.label ?? `#${type}`}</Tag>;
}

/** Status tag; an automatically disabled channel shows its reason and time in a tooltip. */
export function ChannelStatusTag({ channel }: { channel: Pick<ChannelView, 'status' | 'other_info'> }) {
  const { t } = useTranslation('channels');
  const tag = (
    <Tag color={STATUS_COLORS[channel.status] ?? 'default'}>
      {t(`status.${channel.status in STATUS_COLORS ? channel.status : 0}`)}
    </Tag>
  );
  const info = channel.status === 3 ? autoDisableInfo(channel) : null;
  if (!info) return tag;
  return (
    <Tooltip
      title={
        <div>
          <div>{t('status.reason', { reason: info.reason })}</div>
          {info.time ? <div>{t('status.time', { time: formatTime(info.time) })}</div> : null}
        </div>
      }
    >
      {tag}
    </Tooltip>
  );
}

/** Response time badge (milliseconds on the wire, shown in seconds). */
export function ResponseTimeTag({ channel }: { channel: Pick<ChannelView, 'response_time' | 'test_time'> }) {
  const { t } = useTranslation('channels');
  const color = responseTimeColor(channel.response_time);
  const label =
    channel.response_time > 0
      ? t('columns.seconds', { time: (channel.response_time / 1000).toFixed(2) })
      : t('columns.untested');
  const tag = <Tag color={color}>{label}</Tag>;
  return channel.test_time ? <Tooltip title={formatTime(channel.test_time)}>{tag}</Tooltip> : tag;
}

/** Used quota and remaining upstream balance; clicking the balance refreshes it. */
export function QuotaCell({ channel }: { channel: ChannelView }) {
  const { t } = useTranslation('channels');
  const formatQuota = useFormatQuota();
  const invalidate = useInvalidateChannels();
  const [busy, setBusy] = useState(false);
  const refresh = () => {
    setBusy(true);
    updateChannelBalance(channel.id)
      .then(() => {
        notify.success(t('actions.balanceUpdated', { name: channel.name }));
        return invalidate();
      })
      .catch(showApiError)
      .finally(() => setBusy(false));
  };
  return (
    <Space size={4}>
      <Tooltip title={t('columns.used')}>
        <Tag color="blue">{formatQuota(channel.used_quota)}</Tag>
      </Tooltip>
      <Tooltip title={t('columns.remaining')}>
        <Tag color="cyan" style={{ cursor: busy ? 'wait' : 'pointer' }} onClick={busy ? undefined : refresh}>
          {formatDollars(channel.balance)}
        </Tag>
      </Tooltip>
    </Space>
  );
}

/**
 * An integer saved when it loses focus or Enter is pressed (priority, weight). Empty restores the
 * current value; `min` is the smallest accepted value.
 */
export function InlineNumber({
  value,
  min,
  label,
  onSave,
}: {
  value: number;
  min: number;
  label: string;
  onSave: (value: number) => Promise<unknown>;
}) {
  const [draft, setDraft] = useState<number | null>(value);
  const [saving, setSaving] = useState(false);
  const commit = () => {
    if (draft === null || draft === value) {
      setDraft(value);
      return;
    }
    setSaving(true);
    onSave(draft)
      .catch(() => setDraft(value))
      .finally(() => setSaving(false));
  };
  return (
    <InputNumber
      size="small"
      style={{ width: 80 }}
      value={draft}
      min={min}
      precision={0}
      disabled={saving}
      aria-label={label}
      onChange={(next) => setDraft(typeof next === 'number' ? next : null)}
      onBlur={commit}
      onPressEnter={commit}
    />
  );
}

export function GroupTags({ groups }: { groups: string }) {
  return (
    <Space size={2} wrap>
      {groups
        .split(',')
        .filter(Boolean)
        .map((group) => (
          <Tag key={group}>{group}</Tag>
        ))}
    </Space>
  );
}
