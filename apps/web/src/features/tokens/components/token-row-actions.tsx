import type { TokenView } from '@switchyard/shared';
import { App, Button, Dropdown, Input, Popconfirm, Space, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCopyText } from '../../../components/use-copy-text';
import { notify } from '../../../lib/notify';
import { useSiteStatus } from '../../../lib/site-status';
import { fullTokenKey } from '../api/get-token';
import { useDeleteTokenMutation, useTokenStatusMutation } from '../api/save-token';
import { buildChatUrl, type ChatTarget, chatTargets } from './chat-link';
import { tokenToggleState } from './token-form-rules';

/** Row actions: view key, copy, chat, delete, enable/disable, edit. */
export function TokenRowActions({ token, onEdit }: { token: TokenView; onEdit: () => void }) {
  const { t } = useTranslation('tokens');
  const { modal } = App.useApp();
  const copy = useCopyText();
  const status = useSiteStatus();
  const toggleStatus = useTokenStatusMutation();
  const remove = useDeleteTokenMutation();
  const toggle = tokenToggleState(token);
  const chats = chatTargets(status);

  const withKey = (use: (key: string) => unknown) => use(fullTokenKey(token));

  const viewKey = () =>
    withKey((key) => {
      modal.info({
        title: t('actions.keyTitle'),
        content: <Input.TextArea value={key} readOnly autoSize aria-label={t('actions.keyTitle')} />,
      });
    });

  const openChat = (target: ChatTarget | undefined) => {
    if (chats.invalid && !target) return notify.error(t('actions.chatInvalid'));
    if (!target) return notify.error(t('actions.chatMissing'));
    const popup = window.open('', '_blank');
    void withKey((key) => {
      const result = buildChatUrl(target, key, status.server_address || window.location.origin);
      if ('error' in result) {
        popup?.close();
        notify.error(t('actions.chatInvalid'));
        return;
      }
      if (popup) popup.location.href = result.url;
      else window.open(result.url, '_blank', 'noopener');
    });
  };

  const toggleButton = (
    <Button
      size="small"
      disabled={toggle.blocked !== null || toggleStatus.isPending}
      onClick={() =>
        toggleStatus
          .mutateAsync({ id: token.id, status: toggle.action === 'disable' ? 2 : 1 })
          .then(() => notify.success(t('actions.done')))
          .catch(() => undefined)
      }
    >
      {toggle.action === 'disable' ? t('actions.disable') : t('actions.enable')}
    </Button>
  );

  return (
    <Space size={4} wrap>
      <Button size="small" onClick={() => void viewKey()}>
        {t('actions.viewKey')}
      </Button>
      <Button size="small" onClick={() => void withKey((key) => copy(key, t('actions.copied')))}>
        {t('actions.copy')}
      </Button>
      {chats.targets.length > 1 ? (
        <Dropdown
          menu={{
            items: chats.targets.map((target, index) => ({ key: String(index), label: target.name })),
            onClick: ({ key }) => openChat(chats.targets[Number(key)]),
          }}
        >
          <Button size="small">{t('actions.chat')}</Button>
        </Dropdown>
      ) : (
        <Button size="small" onClick={() => openChat(chats.targets[0])}>
          {t('actions.chat')}
        </Button>
      )}
      <Popconfirm
        title={t('actions.deleteConfirm')}
        description={t('actions.deleteWarning')}
        okButtonProps={{ danger: true }}
        onConfirm={() =>
          remove
            .mutateAsync(token.id)
            .then(() => notify.success(t('actions.done')))
            .catch(() => undefined)
        }
      >
        <Button size="small" danger>
          {t('actions.delete')}
        </Button>
      </Popconfirm>
      {toggle.blocked ? (
        <Tooltip
          title={toggle.blocked === 'expired' ? t('actions.blockedExpired') : t('actions.blockedExhausted')}
        >
          <span>{toggleButton}</span>
        </Tooltip>
      ) : (
        toggleButton
      )}
      <Button size="small" onClick={onEdit}>
        {t('actions.edit')}
      </Button>
    </Space>
  );
}
