import { CopyOutlined } from '@ant-design/icons';
import { Button, Card, Input, Space, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCopyText } from '../../../components/use-copy-text';

/** The address to give OpenAI-compatible clients, with a copy button and a short example. */
export function ApiEndpointCard({ origin }: { origin: string }) {
  const { t } = useTranslation('home');
  const { token } = theme.useToken();
  const copy = useCopyText();
  const example = [
    'from openai import OpenAI',
    '',
    `client = OpenAI(base_url="${origin}/v1", api_key="sk-...")`,
    'reply = client.chat.completions.create(',
    '    model="gpt-4o-mini",',
    '    messages=[{"role": "user", "content": "Hello"}],',
    ')',
  ].join('\n');

  return (
    <Card title={t('api.title')} style={{ height: '100%' }}>
      <Typography.Paragraph type="secondary">{t('api.description')}</Typography.Paragraph>
      <Space.Compact style={{ width: '100%', marginBottom: 16 }}>
        <Input value={origin} readOnly aria-label={t('api.baseUrl')} data-testid="api-base-url" />
        <Button icon={<CopyOutlined />} onClick={() => void copy(origin, t('api.copied'))}>
          {t('api.copy')}
        </Button>
      </Space.Compact>
      <Typography.Text type="secondary">{t('api.example')}</Typography.Text>
      <pre
        style={{
          margin: '8px 0 0',
          padding: 12,
          borderRadius: token.borderRadius,
          background: token.colorFillTertiary,
          fontSize: 12,
          lineHeight: 1.6,
          overflowX: 'auto',
        }}
      >
        <code>{example}</code>
      </pre>
    </Card>
  );
}
