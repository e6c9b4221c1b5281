import { Layout, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SafeHtml } from '../../components/safe-html';
import { useSiteStatus } from '../../lib/site-status';

export const UPSTREAM_PROJECTS = {
  newApi: 'https://github.com/Calcium-Ion/new-api',
  oneApi: 'https://github.com/songquanpeng/one-api',
} as const;

/**
 * Footer: the administrator's footer_html (sanitized) when set, otherwise the product name,
 * version and the upstream projects Switchyard is compatible with. The status store is reactive,
 * so the original console's footer polling (200 ms, 5 times) is not needed.
 */
export function AppFooter() {
  const { t } = useTranslation();
  const status = useSiteStatus();
  const version = status.version || __APP_VERSION__;
  return (
    <Layout.Footer style={{ textAlign: 'center', padding: '12px 24px' }} data-testid="app-footer">
      {status.footer_html ? (
        <SafeHtml html={status.footer_html} />
      ) : (
        <Typography.Text type="secondary">
          {t('footer.product', { name: 'Switchyard', version })} {t('footer.compatible')}{' '}
          <a href={UPSTREAM_PROJECTS.newApi} target="_blank" rel="noreferrer">
            New API
          </a>{' '}
          {t('footer.and')}{' '}
          <a href={UPSTREAM_PROJECTS.oneApi} target="_blank" rel="noreferrer">
            One API
          </a>
        </Typography.Text>
      )}
    </Layout.Footer>
  );
}
