import { Button, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SafeHtml } from '../../../components/safe-html';
import { readString, writeString } from '../../../lib/storage';
import { useNoticeQuery } from '../api/get-notice';

/** localStorage key of the last dismissed notice text (the original console's key). */
export const NOTICE_STORAGE_KEY = 'notice';

/**
 * The site notice (GET /api/notice) as a modal, shown once per notice text: closing it stores the
 * text, and the modal comes back only when the administrator changes the notice.
 */
export function NoticeModal() {
  const { t } = useTranslation('home');
  const notice = useNoticeQuery();
  const [dismissed, setDismissed] = useState(() => readString(NOTICE_STORAGE_KEY));
  const text = notice.data ?? '';
  const open = text.trim() !== '' && text !== dismissed;

  const dismiss = () => {
    writeString(NOTICE_STORAGE_KEY, text);
    setDismissed(text);
  };

  return (
    <Modal
      open={open}
      title={t('notice.title')}
      onCancel={dismiss}
      footer={
        <Button type="primary" onClick={dismiss}>
          {t('notice.close')}
        </Button>
      }
      width={640}
      centered
    >
      <div data-testid="notice-content" style={{ maxHeight: '60vh', overflowY: 'auto' }}>
        <SafeHtml markdown={text} />
      </div>
    </Modal>
  );
}
