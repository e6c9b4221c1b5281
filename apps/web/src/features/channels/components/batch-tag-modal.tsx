import { Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { setChannelsTag } from '../api/channel-operations';
import { useInvalidateChannels } from '../api/save-channel';

/** Sets one tag on the selected channels (POST /api/channel/batch/tag). */
export function BatchTagModal({ open, ids, onClose }: { open: boolean; ids: number[]; onClose: () => void }) {
  const { t } = useTranslation('channels');
  const invalidate = useInvalidateChannels();
  const [tag, setTag] = useState('');
  const [saving, setSaving] = useState(false);

  const submit = () => {
    if (ids.length === 0) return notify.error(t('batchTag.selectFirst'));
    if (tag.trim() === '') return notify.error(t('batchTag.tagRequired'));
    setSaving(true);
    setChannelsTag(ids, tag.trim())
      .then((count) => {
        notify.success(t('batchTag.done', { count }));
        setTag('');
        onClose();
        return invalidate();
      })
      .catch(showApiError)
      .finally(() => setSaving(false));
  };

  return (
    <Modal open={open} title={t('batchTag.title')} onCancel={onClose} onOk={submit} confirmLoading={saving}>
      <Input
        value={tag}
        onChange={(event) => setTag(event.target.value)}
        placeholder={t('batchTag.placeholder')}
        aria-label={t('batchTag.tag')}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t('batchTag.hint', { count: ids.length })}
      </Typography.Paragraph>
    </Modal>
  );
}
