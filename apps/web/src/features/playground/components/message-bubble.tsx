import { LoadingOutlined, RobotOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Avatar, Flex, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from './chat-state';
import { MarkdownContent } from './markdown-content';

/** One message; replies render as Markdown and show their state (loading, streaming, error). */
export function MessageBubble({ message }: { message: ChatMessage }) {
  const { t } = useTranslation('playground');
  const { token } = theme.useToken();
  const mine = message.role === 'user';
  return (
    <Flex
      gap={8}
      justify={mine ? 'flex-end' : 'flex-start'}
      data-testid={`message-${message.role}`}
      data-status={message.status}
    >
      {mine ? null : (
        <Avatar icon={<RobotOutlined />} style={{ flex: 'none', backgroundColor: token.colorPrimary }} />
      )}
      <div
        style={{
          maxWidth: '80%',
          minWidth: 0,
          padding: '8px 12px',
          borderRadius: 8,
          background: mine ? token.colorPrimaryBg : token.colorFillQuaternary,
        }}
      >
        {message.status === 'loading' ? (
          <Typography.Text type="secondary">
            <LoadingOutlined /> {t('chat.thinking')}
          </Typography.Text>
        ) : mine ? (
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>
            {message.content}
          </Typography.Paragraph>
        ) : message.status === 'error' ? (
          <Alert
            type="error"
            title={t('chat.error')}
            description={<MarkdownContent text={message.content} />}
          />
        ) : (
          <>
            <MarkdownContent text={message.content} />
            {message.status === 'incomplete' ? (
              <LoadingOutlined style={{ marginTop: 4 }} aria-label={t('chat.streaming')} />
            ) : null}
          </>
        )}
      </div>
      {mine ? <Avatar icon={<UserOutlined />} style={{ flex: 'none' }} /> : null}
    </Flex>
  );
}
