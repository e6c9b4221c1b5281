import { Alert, Form, Input, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { editTag } from '../api/channel-operations';
import { useChannelGroupsQuery } from '../api/get-channels';
import { useInvalidateChannels } from '../api/save-channel';
import { buildTagEditBody, type TagFormValues } from './channel-form-rules';

const ERROR_KEYS = {
  nothingChanged: 'tagEdit.nothingChanged',
  priorityInteger: 'tagEdit.priorityInteger',
  weightNonNegative: 'tagEdit.weightNonNegative',
  modelMapping: 'tagEdit.modelMappingInvalid',
} as const;

/** Edits every channel of a tag: each filled field overwrites; empty fields stay unchanged. */
export function TagEditModal({ tag, onClose }: { tag: string | null; onClose: () => void }) {
  const { t } = useTranslation('channels');
  const [form] = Form.useForm<TagFormValues>();
  const groups = useChannelGroupsQuery();
  const invalidate = useInvalidateChannels();
  const [saving, setSaving] = useState(false);

  const submit = () => {
    if (tag === null) return;
    const result = buildTagEditBody(tag, { ...emptyValues(tag), ...form.getFieldsValue() });
    if ('error' in result) {
      notify.error(t(ERROR_KEYS[result.error]));
      return;
    }
    setSaving(true);
    editTag(result.body)
      .then(() => {
        notify.success(t('tagEdit.done'));
        onClose();
        return invalidate();
      })
      .catch(showApiError)
      .finally(() => setSaving(false));
  };

  return (
    <Modal
      open={tag !== null}
      title={t('tagEdit.title', { tag: tag ?? '' })}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Alert type="info" showIcon title={t('tagEdit.notice')} style={{ marginBottom: 16 }} />
      <Form<TagFormValues>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={emptyValues(tag ?? '')}
      >
        <Form.Item name="new_tag" label={t('tagEdit.newTag')}>
          <Input placeholder={t('tagEdit.newTagPlaceholder')} />
        </Form.Item>
        <Form.Item name="models" label={t('tagEdit.models')}>
          <Select
            mode="tags"
            allowClear
            placeholder={t('tagEdit.modelsPlaceholder')}
            tokenSeparators={[',']}
          />
        </Form.Item>
        <Form.Item name="groups" label={t('tagEdit.groups')}>
          <Select
            mode="tags"
            allowClear
            placeholder={t('tagEdit.groupsPlaceholder')}
            options={(groups.data ?? []).map((group) => ({ value: group, label: group }))}
          />
        </Form.Item>
        <Form.Item name="model_mapping" label={t('tagEdit.modelMapping')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} placeholder={t('tagEdit.unchanged')} />
        </Form.Item>
        <Form.Item name="priority" label={t('tagEdit.priority')}>
          <Input placeholder={t('tagEdit.unchanged')} />
        </Form.Item>
        <Form.Item name="weight" label={t('tagEdit.weight')}>
          <Input placeholder={t('tagEdit.unchanged')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

const emptyValues = (tag: string): TagFormValues => ({
  new_tag: tag,
  models: [],
  groups: [],
  model_mapping: '',
  priority: '',
  weight: '',
});
