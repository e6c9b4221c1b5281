import { Alert, Button, Spin, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { ClearProgress as Progress } from '../api/clear-logs';

const at = (seconds: number) => dayjs.unix(seconds).format('YYYY-MM-DD HH:mm:ss');

/**
 * The latest clear on the server: running (rows deleted so far, read every second), done, or
 * failed with its message; nothing before the first clear. A progress read that fails says so
 * with a retry, and the clear itself goes on.
 */
export function ClearProgressNote(props: {
  progress: Progress | undefined;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
}) {
  const { t } = useTranslation('settings');
  const { progress, loading, failed, onRetry } = props;
  if (failed) {
    return (
      <Alert
        type="warning"
        showIcon
        message={t('operation.logs.progressUnavailable')}
        action={
          <Button size="small" onClick={onRetry}>
            {t('operation.logs.progressRetry')}
          </Button>
        }
      />
    );
  }
  if (loading) return <Spin size="small" aria-label={t('operation.logs.progressLoading')} />;
  if (!progress || progress.state === 'idle') return null;
  const values = { count: progress.deleted, time: at(progress.target_timestamp) };
  if (progress.state === 'running') {
    return (
      <Alert
        type="info"
        showIcon
        icon={<Spin size="small" />}
        message={t('operation.logs.progressRunning', values)}
        description={t('operation.logs.progressRunningHelp')}
      />
    );
  }
  if (progress.state === 'failed') {
    return (
      <Alert
        type="error"
        showIcon
        message={t('operation.logs.progressFailed', values)}
        description={progress.message}
      />
    );
  }
  return (
    <Typography.Text type="secondary">
      {t('operation.logs.progressDone', { ...values, finished: at(progress.finished_at) })}
    </Typography.Text>
  );
}
