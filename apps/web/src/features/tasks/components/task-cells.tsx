import { Progress, Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { durationColor, progressPercent, STATUS_COLORS, statusKey, taskDuration } from './task-rules';

export function StatusTag({ status }: { status: string }) {
  const { t } = useTranslation('tasks');
  const key = statusKey(status);
  return <Tag color={STATUS_COLORS[status] ?? 'default'}>{t(`status.${key}`, { defaultValue: status })}</Tag>;
}

export function ProgressCell({ progress, status }: { progress: string; status: string }) {
  const percent = progressPercent(progress);
  const state = status === 'FAILURE' ? 'exception' : status === 'SUCCESS' ? 'success' : 'active';
  return <Progress percent={percent} size="small" status={state} style={{ width: 120 }} />;
}

export function DurationTag({ submit, finish, unit }: { submit: number; finish: number; unit: 'ms' | 's' }) {
  const { t } = useTranslation('tasks');
  const seconds = taskDuration(submit, finish, unit);
  if (seconds === null) return <Tag>{t('unfinished')}</Tag>;
  return <Tag color={durationColor(seconds)}>{t('seconds', { value: seconds })}</Tag>;
}

/** Formats a task time given in milliseconds or seconds. */
export function formatTaskTime(value: number, unit: 'ms' | 's'): string {
  if (!value) return '-';
  return dayjs(unit === 'ms' ? value : value * 1000).format('YYYY-MM-DD HH:mm:ss');
}
