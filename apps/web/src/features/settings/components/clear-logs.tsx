import { DeleteOutlined } from '@ant-design/icons';
import { Button, DatePicker, Flex, Popconfirm, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useClearLogsMutation, useClearProgressQuery } from '../api/clear-logs';
import { ClearProgressNote } from './clear-progress';

/** One month ago: the default time before which logs are cleared. */
export const defaultClearLogsTime = (): Dayjs => dayjs().subtract(1, 'month');

/**
 * Deletes logs older than a chosen date and time (DELETE /api/log/?target_timestamp=). Without a
 * time it refuses ('请选择日志记录时间'); a failure is shown with the '日志清理失败：' prefix.
 * The server deletes in batches: when it answers before the end, the progress below is followed
 * (GET /api/log/clear_progress every second) and the count is announced once it is done.
 */
export function ClearLogs() {
  const { t } = useTranslation('settings');
  const [time, setTime] = useState<Dayjs | null>(defaultClearLogsTime);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const mutation = useClearLogsMutation();
  const progress = useClearProgressQuery();
  // Set while a clear started here runs on: its end is announced.
  const watching = useRef(false);
  const state = progress.data?.state;

  useEffect(() => {
    if (!watching.current || !progress.data || state === 'running') return;
    watching.current = false;
    if (state === 'done') notify.success(t('operation.logs.cleared', { count: progress.data.deleted }));
    if (state === 'failed') notify.error(t('operation.logs.clearFailed', { message: progress.data.message }));
  }, [state, progress.data, t]);

  const run = async () => {
    setConfirmOpen(false);
    if (!time) return;
    try {
      const deleted = await mutation.mutateAsync(Math.floor(time.valueOf() / 1000));
      const latest = await progress.refetch();
      if (latest.data?.state === 'running') watching.current = true;
      else notify.success(t('operation.logs.cleared', { count: deleted }));
    } catch (error) {
      // Statuses (403, 500, ...) were already shown by the api-client.
      if (isApiError(error) && error.handled) return;
      notify.error(
        t('operation.logs.clearFailed', { message: error instanceof Error ? error.message : String(error) }),
      );
    }
  };

  return (
    <div style={{ marginBottom: 16 }}>
      <Typography.Text strong>{t('operation.logs.clearTitle')}</Typography.Text>
      <Typography.Paragraph type="secondary" style={{ margin: '4px 0 8px' }}>
        {t('operation.logs.clearHelp')}
      </Typography.Paragraph>
      <Flex gap={8} wrap align="center">
        <DatePicker
          showTime
          value={time}
          onChange={(value) => setTime(value)}
          placeholder={t('operation.logs.timePlaceholder')}
          aria-label={t('operation.logs.time')}
          style={{ minWidth: 220 }}
        />
        <Popconfirm
          open={confirmOpen}
          title={t('operation.logs.clearConfirm')}
          okButtonProps={{ danger: true }}
          onConfirm={() => void run()}
          onCancel={() => setConfirmOpen(false)}
          onOpenChange={(open) => {
            if (!open) setConfirmOpen(false);
          }}
        >
          <Button
            danger
            icon={<DeleteOutlined />}
            loading={mutation.isPending || state === 'running'}
            onClick={() => {
              if (!time) {
                notify.error(t('operation.logs.timeRequired'));
                return;
              }
              setConfirmOpen(true);
            }}
          >
            {t('operation.logs.clear')}
          </Button>
        </Popconfirm>
      </Flex>
      <div style={{ marginTop: 8 }}>
        <ClearProgressNote
          progress={progress.data}
          loading={progress.isPending}
          failed={progress.isError}
          onRetry={() => void progress.refetch()}
        />
      </div>
    </div>
  );
}
