import { CHANNEL_TYPES } from '@switchyard/shared';
import { Button, Checkbox, Flex, Form, Input, InputNumber, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useChannelGroupsQuery } from '../api/get-channels';
import { type ChannelFormValues, PRIORITY_MIN } from './channel-form-rules';
import { ChannelModelField } from './channel-model-field';
import { KEY_HINT_TYPES } from './channel-rules';
import { ChannelTypeFields, hasOwnBaseUrl } from './channel-type-fields';

const TEMPLATES = {
  model_mapping: JSON.stringify({ 'gpt-3.5-turbo': 'gpt-3.5-turbo-0125' }, null, 2),
  status_code_mapping: JSON.stringify({ '400': '500' }, null, 2),
  setting: JSON.stringify({ force_format: true }, null, 2),
} as const;

/** The channel editor: every common field, the type-specific fields and the model helpers. */
export function ChannelForm({
  channelId,
  initialValues,
  submitting,
  onSubmit,
  onCancel,
}: {
  /** null when creating. */
  channelId: number | null;
  initialValues: ChannelFormValues;
  submitting: boolean;
  onSubmit: (values: ChannelFormValues) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('channels');
  const [form] = Form.useForm<ChannelFormValues>();
  const groups = useChannelGroupsQuery();
  const type = Form.useWatch('type', form) ?? initialValues.type;
  const batch = Form.useWatch('batch', form) ?? false;
  const creating = channelId === null;
  const keyHint = (KEY_HINT_TYPES as readonly number[]).includes(type)
    ? t(`edit.keyHints.${type}`)
    : undefined;
  const multiline = batch || type === 41;

  const jsonField = (name: keyof typeof TEMPLATES, label: string, placeholder: string) => (
    <Form.Item
      label={
        <Flex gap={8} align="center">
          {label}
          <Typography.Link onClick={() => form.setFieldValue(name, TEMPLATES[name])}>
            {t('edit.fillTemplate')}
          </Typography.Link>
        </Flex>
      }
    >
      <Form.Item name={name} noStyle>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 10 }} placeholder={placeholder} aria-label={label} />
      </Form.Item>
    </Form.Item>
  );

  return (
    <Form<ChannelFormValues>
      form={form}
      layout="vertical"
      initialValues={initialValues}
      onFinish={(values) => onSubmit({ ...initialValues, ...values })}
      style={{ maxWidth: 800 }}
    >
      <Form.Item name="type" label={t('edit.type')} required>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          options={CHANNEL_TYPES.map((info) => ({ value: info.id, label: info.label }))}
        />
      </Form.Item>
      <Form.Item name="name" label={t('edit.name')} required>
        <Input placeholder={t('edit.namePlaceholder')} autoComplete="off" />
      </Form.Item>
      <ChannelTypeFields type={type} />
      {hasOwnBaseUrl(type) ? null : (
        <Form.Item name="base_url" label={t('edit.baseUrl')}>
          <Input placeholder={t('edit.baseUrlPlaceholder')} autoComplete="off" />
        </Form.Item>
      )}
      <Form.Item
        label={t('edit.key')}
        required={creating}
        extra={
          creating ? (
            keyHint
          ) : (
            <>
              {keyHint ? <div>{keyHint}</div> : null}
              <div>{t('edit.keyFollowsAddress')}</div>
            </>
          )
        }
      >
        <Form.Item name="key" noStyle>
          {multiline ? (
            <Input.TextArea
              autoSize={{ minRows: 3, maxRows: 10 }}
              aria-label={t('edit.key')}
              placeholder={
                type === 41
                  ? t('edit.vertexKeyPlaceholder')
                  : creating
                    ? t('edit.keyBatchPlaceholder')
                    : t('edit.keyUpdatePlaceholder')
              }
            />
          ) : (
            <Input.Password
              aria-label={t('edit.key')}
              autoComplete="new-password"
              placeholder={creating ? (keyHint ?? t('edit.keyPlaceholder')) : t('edit.keyUpdatePlaceholder')}
            />
          )}
        </Form.Item>
        {creating && type !== 41 ? (
          <Form.Item name="batch" valuePropName="checked" noStyle>
            <Checkbox style={{ marginTop: 8 }}>
              {t('edit.batch')} <Typography.Text type="secondary">{t('edit.batchHint')}</Typography.Text>
            </Checkbox>
          </Form.Item>
        ) : null}
      </Form.Item>
      {type === 1 ? (
        <Form.Item
          name="openai_organization"
          label={t('edit.organization')}
          extra={t('edit.organizationHint')}
        >
          <Input placeholder={t('edit.organizationPlaceholder')} autoComplete="off" />
        </Form.Item>
      ) : null}
      <Form.Item name="groups" label={t('edit.groups')}>
        <Select
          mode="tags"
          allowClear
          loading={groups.isPending}
          placeholder={t('edit.groupsPlaceholder')}
          options={(groups.data ?? []).map((group) => ({ value: group, label: group }))}
        />
      </Form.Item>
      <ChannelModelField form={form} channelId={channelId} />
      {jsonField('model_mapping', t('edit.modelMapping'), t('edit.modelMappingPlaceholder'))}
      <Form.Item name="test_model" label={t('edit.testModel')}>
        <Input placeholder={t('edit.testModelPlaceholder')} autoComplete="off" />
      </Form.Item>
      <Form.Item name="tag" label={t('edit.tag')}>
        <Input placeholder={t('edit.tagPlaceholder')} autoComplete="off" />
      </Form.Item>
      <Flex gap={16} wrap>
        <Form.Item name="priority" label={t('edit.priority')}>
          <InputNumber min={PRIORITY_MIN} precision={0} style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="weight" label={t('edit.weight')}>
          <InputNumber precision={0} style={{ width: 180 }} />
        </Form.Item>
      </Flex>
      {jsonField('setting', t('edit.setting'), t('edit.settingPlaceholder'))}
      <Form.Item
        name="auto_ban"
        label={t('edit.autoBan')}
        valuePropName="checked"
        extra={t('edit.autoBanHint')}
      >
        <Switch />
      </Form.Item>
      {jsonField('status_code_mapping', t('edit.statusCodeMapping'), t('edit.statusCodeMappingPlaceholder'))}
      <Flex gap={8} justify="end">
        <Button onClick={onCancel}>{t('edit.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={submitting}>
          {t('edit.submit')}
        </Button>
      </Flex>
    </Form>
  );
}
