import { Col, Row } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { notify } from '../../../lib/notify';
import { ChatPanel } from '../components/chat-panel';
import {
  DEFAULT_PLAYGROUND_SETTINGS,
  PlaygroundSettings,
  type PlaygroundSettingsValue,
} from '../components/playground-settings';
import { useChat } from '../components/use-chat';

/** /playground — chat with a model through the user's own session (streamed, Markdown). */
export function PlaygroundPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const [settings, setSettings] = useState<PlaygroundSettingsValue>(DEFAULT_PLAYGROUND_SETTINGS);
  const chat = useChat(settings);
  const expired = searchParams.get('expired') === 'true';

  useEffect(() => {
    if (expired) notify.warning(t('errors.loginExpired'));
  }, [expired, t]);

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={7}>
        <PlaygroundSettings value={settings} onChange={setSettings} />
      </Col>
      <Col xs={24} lg={17}>
        <ChatPanel
          messages={chat.messages}
          busy={chat.busy}
          onSend={(text) => void chat.send(text)}
          onStop={chat.stop}
          onClear={chat.clear}
        />
      </Col>
    </Row>
  );
}
