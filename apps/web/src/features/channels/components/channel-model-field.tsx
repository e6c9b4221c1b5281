import { channelTypeInfo } from '@switchyard/shared';
import { Button, Flex, Form, type FormInstance, Input, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { fetchModelsOfChannel, fetchModelsWithKey } from '../api/channel-operations';
import { getKnownModels } from '../api/get-channels';
import type { ChannelFormValues } from './channel-form-rules';
import { addCustomModels, mergeModels, readFetchedModels } from './channel-rules';

/**
 * The models field and its helpers: fill related models (the type's defaults), fill all known
 * models, fetch the upstream's list (saved channel by id, new channel with its key), clear, and
 * add custom names separated by commas.
 */
export function ChannelModelField({
  form,
  channelId,
}: {
  form: FormInstance<ChannelFormValues>;
  channelId: number | null;
}) {
  const { t } = useTranslation('channels');
  const [custom, setCustom] = useState('');
  const [fetching, setFetching] = useState(false);
  const models = (): string[] => form.getFieldValue('models') ?? [];
  const setModels = (next: string[]) => form.setFieldValue('models', next);

  const fillRelated = () => {
    const info = channelTypeInfo(form.getFieldValue('type') as number);
    setModels(mergeModels(models(), info?.defaultModels ?? []));
  };

  const fillAll = () =>
    getKnownModels()
      .then((all) => setModels(mergeModels(models(), all)))
      .catch(() => notify.error(t('edit.modelsFetchFailed')));

  const fetchList = () => {
    const key = String(form.getFieldValue('key') ?? '').trim();
    if (channelId === null && key === '') {
      notify.error(t('edit.keyRequired'));
      return;
    }
    setFetching(true);
    const call =
      channelId !== null && key === ''
        ? fetchModelsOfChannel(channelId)
        : fetchModelsWithKey({
            base_url: String(form.getFieldValue('base_url') ?? '').trim(),
            type: Number(form.getFieldValue('type')),
            key: key.split('\n')[0]?.trim() ?? key,
          });
    call
      .then((data) => {
        const names = readFetchedModels(data);
        if (names === null) throw new Error('not a list');
        setModels(mergeModels(models(), names));
        notify.success(t('edit.modelsFetched'));
      })
      .catch((error: unknown) => {
        if (isApiError(error) && error.handled) return;
        notify.error(
          isApiError(error) && error.kind === 'envelope' ? error.message : t('edit.modelsFetchFailed'),
        );
      })
      .finally(() => setFetching(false));
  };

  const addCustom = () => {
    const result = addCustomModels(models(), custom);
    if ('error' in result) {
      notify.error(t('edit.duplicateModels'));
      return;
    }
    setModels(result.models);
    setCustom('');
  };

  return (
    <Form.Item label={t('edit.models')} required>
      <Form.Item name="models" noStyle>
        <Select
          mode="tags"
          allowClear
          tokenSeparators={[',']}
          placeholder={t('edit.modelsPlaceholder')}
          aria-label={t('edit.models')}
          maxTagCount="responsive"
        />
      </Form.Item>
      <Flex wrap gap={8} style={{ marginTop: 8 }}>
        <Button size="small" type="primary" onClick={fillRelated}>
          {t('edit.fillRelated')}
        </Button>
        <Button size="small" type="primary" onClick={() => void fillAll()}>
          {t('edit.fillAll')}
        </Button>
        <Button size="small" loading={fetching} onClick={fetchList}>
          {t('edit.fetchModels')}
        </Button>
        <Button size="small" danger onClick={() => setModels([])}>
          {t('edit.clearModels')}
        </Button>
      </Flex>
      <Space.Compact style={{ width: '100%', marginTop: 8 }}>
        <Input
          value={custom}
          onChange={(event) => setCustom(event.target.value)}
          onPressEnter={(event) => {
            event.preventDefault();
            addCustom();
          }}
          placeholder={t('edit.customModels')}
          aria-label={t('edit.customModels')}
        />
        <Button onClick={addCustom}>{t('edit.addCustom')}</Button>
      </Space.Compact>
    </Form.Item>
  );
}
