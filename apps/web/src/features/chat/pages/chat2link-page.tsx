import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteStatus } from '../../../lib/site-status';
import { chatLinkWithSettings } from '../components/chat-links';
import { ChatNotice } from '../components/chat-notice';
import { useChatKey } from '../components/use-chat-key';

/** /chat2link — redirects to the configured chat link with the user's key and server preset. */
export function Chat2LinkPage({
  redirect = (url: string) => window.location.assign(url),
}: {
  redirect?: (url: string) => void;
}) {
  const { t } = useTranslation('chat');
  const status = useSiteStatus();
  const chatLink = status.chat_link || status.chat_link2 || '';
  const key = useChatKey(chatLink !== '');
  const serverAddress = status.server_address || window.location.origin;
  const target = chatLink && key.data ? chatLinkWithSettings(chatLink, key.data, serverAddress) : '';

  useEffect(() => {
    if (target) redirect(target);
  }, [target, redirect]);

  if (!chatLink) return <ChatNotice kind="error" text={t('notConfigured')} />;
  return <ChatNotice kind="loading" text={t('loading')} />;
}
