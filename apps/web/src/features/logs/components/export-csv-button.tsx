import { DownloadOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { logExportUrl } from '../api/export-logs';
import type { LogFilters } from '../api/log-keys';

/**
 * Downloads the admin log list of the applied filters as CSV: a plain link, so the browser streams
 * the file to disk. It opens in a new tab: a download closes it at once, while a refusal (another
 * export still running, a signed-out session) is shown there instead of replacing the console.
 */
export function ExportCsvButton({ filters, userId }: { filters: LogFilters; userId: number }) {
  const { t } = useTranslation('logs');
  return (
    <Tooltip title={t('export.hint')}>
      <Button icon={<DownloadOutlined />} href={logExportUrl(filters, userId)} target="_blank" rel="noopener">
        {t('export.button')}
      </Button>
    </Tooltip>
  );
}
