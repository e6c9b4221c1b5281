import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useSiteStatus } from '../../../lib/site-status';
import { readString } from '../../../lib/storage';
import { chatEntryAt, chatLinkWithSettings, fillChatTemplate } from '../components/chat-links';
import { ChatNotice } from '../components/chat-notice';
import { useChatKey } from '../components/use-chat-key';

type Target =
  | { kind: 'template'; template: string }
  | { kind: 'link'; link: string }
  | { kind: 'error'; message: string };

/**
 * /chat/{id?} — a configured chat client in an embedded frame, with the user's first enabled key
 * filled in. Without an id the chat link is used (else the first chat entry).
 */
export function ChatPage() {
  const { t } = useTranslation('chat');
  const { id } = useParams();
  const status = useSiteStatus();
  const serverAddress = status.server_address || window.location.origin;
  const chats = status.chats ?? readString('chats');

  let target: Target;
  if (id === undefined && status.chat_link) target = { kind: 'link', link: status.chat_link };
  else {
    const found = chatEntryAt(chats, id === undefined ? 0 : Number(id));
    if ('entry' in found) target = { kind: 'template', template: found.entry.url };
    else
      target = {
        kind: 'error',
        message: found.error === 'missing' ? t('notConfigured') : t('invalidConfig'),
      };
  }

  const key = useChatKey(target.kind !== 'error');
  if (target.kind === 'error') return <ChatNotice kind="error" text={target.message} />;
  if (!key.data) return <ChatNotice kind="loading" text={t('redirecting')} />;
  const src =
    target.kind === 'link'
      ? chatLinkWithSettings(target.link, key.data, serverAddress)
      : fillChatTemplate(target.template, key.data, serverAddress);
  return (
    <iframe
      src={src}
      title={t('frameTitle')}
      style={{ width: '100%', height: 'calc(100vh - 160px)', minHeight: 480, border: 'none' }}
      allow="clipboard-read; clipboard-write; microphone"
    />
  );
}
