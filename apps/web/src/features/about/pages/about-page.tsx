import { Card, Descriptions, Skeleton, Typography } from 'antd';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SiteContent } from '../../../components/site-content';
import { DEFAULT_SYSTEM_NAME, useSiteStatus } from '../../../lib/site-status';
import { useAboutQuery } from '../api/get-about';

const NEW_API_URL = 'https://github.com/Calcium-Ion/new-api';
const ONE_API_URL = 'https://github.com/songquanpeng/one-api';

/** Header, content padding and footer around the about frame. */
const CHROME_HEIGHT = 200;

/** The about text shown while the administrator has not set any. */
function DefaultAbout() {
  const { t, i18n } = useTranslation('about');
  const status = useSiteStatus();
  const systemName = status.system_name || DEFAULT_SYSTEM_NAME;
  const version = status.version || __APP_VERSION__;
  return (
    <Card title={t('default.title', { name: systemName })} data-testid="default-about">
      <Typography.Paragraph>{t('default.description', { name: systemName })}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">
        <Trans t={t} i18nKey="default.hint" components={{ settings: <Link to="/setting?tab=other" /> }} />
      </Typography.Paragraph>
      <Descriptions
        column={1}
        size="small"
        bordered
        style={{ maxWidth: 640, marginBottom: 16 }}
        items={[
          { key: 'product', label: t('default.product'), children: 'Switchyard' },
          {
            key: 'version',
            label: t('default.version'),
            children: <span data-testid="about-version">{version}</span>,
          },
          {
            key: 'started',
            label: t('default.startTime'),
            children: status.start_time
              ? new Date(status.start_time * 1000).toLocaleString(i18n.language)
              : t('default.unknown'),
          },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t('default.compatible')}{' '}
        <a href={NEW_API_URL} target="_blank" rel="noreferrer">
          New API
        </a>{' '}
        {t('default.and')}{' '}
        <a href={ONE_API_URL} target="_blank" rel="noreferrer">
          One API
        </a>
      </Typography.Paragraph>
    </Card>
  );
}

/**
 * /about (public): the administrator's About option — Markdown/HTML rendered safely, or a URL in
 * a frame — or a default text with the version when it is empty.
 */
export function AboutPage() {
  const { t } = useTranslation('about');
  const about = useAboutQuery();
  const text = about.data ?? '';

  if (about.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (text.trim() === '') return <DefaultAbout />;
  return (
    <Card styles={{ body: { padding: 0 } }} style={{ overflow: 'hidden' }}>
      <SiteContent
        content={text}
        title={t('content.frameTitle')}
        frameHeight={`max(480px, calc(100vh - ${CHROME_HEIGHT}px))`}
        contentStyle={{ padding: 24 }}
      />
    </Card>
  );
}
