import { Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A shortened text that opens in a dialog (prompts, fail reasons), with a copy button. */
export function TextDialogLink({ text, title }: { text: string; title: string }) {
  const { t } = useTranslation('tasks');
  const [open, setOpen] = useState(false);
  if (!text) return <Typography.Text type="secondary">{t('none')}</Typography.Text>;
  return (
    <>
      <Typography.Link
        onClick={() => setOpen(true)}
        style={{ display: 'inline-block', maxWidth: 200 }}
        ellipsis
      >
        {text}
      </Typography.Link>
      <Modal open={open} title={title} footer={null} onCancel={() => setOpen(false)} destroyOnHidden>
        <Typography.Paragraph copyable={{ text }} style={{ whiteSpace: 'pre-wrap' }}>
          {text}
        </Typography.Paragraph>
      </Modal>
    </>
  );
}
