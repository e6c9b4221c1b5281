import { App, Input } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { copyToClipboard } from '../lib/clipboard';
import { notify } from '../lib/notify';

/**
 * Returns `copy(text, successMessage?)`: copies to the clipboard and, when the browser refuses,
 * opens a dialog with the text selected for manual copying ('无法复制到剪贴板，请手动复制').
 */
export function useCopyText(): (text: string, successMessage?: string) => Promise<boolean> {
  const { modal } = App.useApp();
  const { t } = useTranslation();
  return useCallback(
    async (text: string, successMessage?: string) => {
      if (await copyToClipboard(text)) {
        if (successMessage) notify.success(successMessage);
        return true;
      }
      modal.info({
        title: t('copy.manualTitle'),
        content: <Input.TextArea value={text} readOnly autoSize onFocus={(event) => event.target.select()} />,
        okText: t('actions.close'),
      });
      return false;
    },
    [modal, t],
  );
}
