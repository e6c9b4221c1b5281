import { ClearOutlined, SendOutlined, StopOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Input } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from './chat-state';
import { MessageBubble } from './message-bubble';

/** The conversation, the input, and send / stop / clear context. */
export function ChatPanel({
  messages,
  busy,
  onSend,
  onStop,
  onClear,
}: {
  messages: ChatMessage[];
  busy: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  onClear: () => void;
}) {
  const { t } = useTranslation('playground');
  const [text, setText] = useState('');
  const end = useRef<HTMLDivElement>(null);
  const last = messages.at(-1);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever the last message grows.
  useEffect(() => {
    // Braces matter: recent browsers return a Promise from scrollIntoView, which must not become
    // the effect's cleanup.
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length, last?.content]);

  const submit = () => {
    if (busy || text.trim() === '') return;
    onSend(text);
    setText('');
  };
  return (
    <Card
      title={t('chat.title')}
      size="small"
      extra={
        <Button size="small" icon={<ClearOutlined />} onClick={onClear} disabled={messages.length === 0}>
          {t('chat.clear')}
        </Button>
      }
      styles={{ body: { display: 'flex', flexDirection: 'column', gap: 12 } }}
    >
      <Flex
        vertical
        gap={12}
        style={{ minHeight: 320, maxHeight: '60vh', overflowY: 'auto' }}
        data-testid="chat-messages"
      >
        {messages.length === 0 ? <Empty description={t('chat.empty')} /> : null}
        {messages.map((message) => (
          <MessageBubble key={message.id} message={message} />
        ))}
        <div ref={end} />
      </Flex>
      <Flex gap={8} align="flex-end">
        <Input.TextArea
          aria-label={t('chat.input')}
          placeholder={t('chat.placeholder')}
          autoSize={{ minRows: 1, maxRows: 6 }}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onPressEnter={(event) => {
            if (event.shiftKey || event.nativeEvent.isComposing) return;
            event.preventDefault();
            submit();
          }}
        />
        {busy ? (
          <Button danger icon={<StopOutlined />} onClick={onStop}>
            {t('chat.stop')}
          </Button>
        ) : (
          <Button type="primary" icon={<SendOutlined />} onClick={submit} disabled={text.trim() === ''}>
            {t('chat.send')}
          </Button>
        )}
      </Flex>
    </Card>
  );
}
