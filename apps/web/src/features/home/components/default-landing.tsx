import {
  ApiOutlined,
  BranchesOutlined,
  DollarOutlined,
  FileSearchOutlined,
  LoginOutlined,
  RocketOutlined,
  UserAddOutlined,
} from '@ant-design/icons';
import { Button, Card, Col, Descriptions, Flex, Row, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLandingPaths } from '../../../lib/landing';
import { useSessionUser } from '../../../lib/session';
import { DEFAULT_SYSTEM_NAME, useSiteStatus } from '../../../lib/site-status';
import { useIsMobile } from '../../../lib/use-is-mobile';
import { ApiEndpointCard } from './api-endpoint-card';

const FEATURES: ReadonlyArray<{ key: string; icon: ReactNode }> = [
  { key: 'protocols', icon: <ApiOutlined /> },
  { key: 'routing', icon: <BranchesOutlined /> },
  { key: 'billing', icon: <DollarOutlined /> },
  { key: 'logs', icon: <FileSearchOutlined /> },
];

/**
 * The home page when the administrator has set no HomePageContent: what the gateway is, where to
 * go next (console or sign-in, pricing) and the API address for OpenAI-compatible clients.
 */
export function DefaultLanding({ origin = window.location.origin }: { origin?: string }) {
  const { t, i18n } = useTranslation('home');
  const { token } = theme.useToken();
  const status = useSiteStatus();
  const user = useSessionUser();
  const isMobile = useIsMobile();
  const { afterPasswordLogin } = useLandingPaths();
  const systemName = status.system_name || DEFAULT_SYSTEM_NAME;
  const startTime = status.start_time
    ? new Date(status.start_time * 1000).toLocaleString(i18n.language)
    : t('system.unknown');

  return (
    <div data-testid="default-landing">
      <section
        style={{
          padding: isMobile ? '40px 16px 32px' : '72px 24px 56px',
          textAlign: 'center',
          background: `linear-gradient(180deg, ${token.colorPrimaryBg} 0%, ${token.colorBgLayout} 100%)`,
        }}
      >
        <Flex vertical align="center" gap={16} style={{ maxWidth: 760, margin: '0 auto' }}>
          <img
            src={status.logo || '/logo.svg'}
            alt=""
            width={isMobile ? 56 : 72}
            height={isMobile ? 56 : 72}
            style={{ borderRadius: 16 }}
          />
          <Typography.Title level={1} style={{ margin: 0, fontSize: isMobile ? 30 : 44 }}>
            {systemName}
          </Typography.Title>
          <Typography.Title level={4} type="secondary" style={{ margin: 0, fontWeight: 400 }}>
            {t('hero.tagline')}
          </Typography.Title>
          <Typography.Paragraph style={{ fontSize: 16, margin: 0, color: token.colorTextSecondary }}>
            {t('hero.description', { name: systemName })}
          </Typography.Paragraph>
          <Flex gap={12} wrap justify="center" style={{ marginTop: 8 }}>
            {user ? (
              <Link to={afterPasswordLogin}>
                <Button type="primary" size="large" icon={<RocketOutlined />}>
                  {t('hero.console')}
                </Button>
              </Link>
            ) : (
              <>
                <Link to="/login">
                  <Button type="primary" size="large" icon={<LoginOutlined />}>
                    {t('hero.login')}
                  </Button>
                </Link>
                {status.self_use_mode_enabled ? null : (
                  <Link to="/register">
                    <Button size="large" icon={<UserAddOutlined />}>
                      {t('hero.register')}
                    </Button>
                  </Link>
                )}
              </>
            )}
            <Link to="/pricing">
              <Button size="large" icon={<DollarOutlined />}>
                {t('hero.pricing')}
              </Button>
            </Link>
          </Flex>
        </Flex>
      </section>
      <div style={{ maxWidth: 1120, margin: '0 auto', padding: isMobile ? 16 : 24 }}>
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={14}>
            <ApiEndpointCard origin={origin} />
          </Col>
          <Col xs={24} lg={10}>
            <Card title={t('system.title')} style={{ height: '100%' }}>
              <Descriptions
                column={1}
                size="small"
                items={[
                  { key: 'name', label: t('system.name'), children: systemName },
                  { key: 'version', label: t('system.version'), children: status.version || __APP_VERSION__ },
                  { key: 'started', label: t('system.startTime'), children: startTime },
                ]}
              />
            </Card>
          </Col>
          {FEATURES.map((feature) => (
            <Col key={feature.key} xs={24} sm={12} lg={6}>
              <Card style={{ height: '100%' }}>
                <Flex vertical gap={8}>
                  <span style={{ fontSize: 24, color: token.colorPrimary }}>{feature.icon}</span>
                  <Typography.Text strong>{t(`features.${feature.key}.title`)}</Typography.Text>
                  <Typography.Text type="secondary">
                    {t(`features.${feature.key}.description`)}
                  </Typography.Text>
                </Flex>
              </Card>
            </Col>
          ))}
        </Row>
      </div>
    </div>
  );
}
