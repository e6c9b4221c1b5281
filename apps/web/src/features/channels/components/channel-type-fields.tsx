import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';

/** Where a type keeps its specific value: the base URL or the `other` field. */
const TYPE_FIELDS: Record<number, { field: 'base_url' | 'other'; label: string; placeholder: string }[]> = {
  3: [
    { field: 'base_url', label: 'edit.azureEndpoint', placeholder: 'edit.azureEndpointPlaceholder' },
    { field: 'other', label: 'edit.azureVersion', placeholder: 'edit.azureVersionPlaceholder' },
  ],
  8: [{ field: 'base_url', label: 'edit.customUrl', placeholder: 'edit.customUrlPlaceholder' }],
  18: [{ field: 'other', label: 'edit.sparkVersion', placeholder: 'edit.sparkVersionPlaceholder' }],
  21: [{ field: 'other', label: 'edit.knowledgeId', placeholder: 'edit.knowledgeIdPlaceholder' }],
  22: [{ field: 'base_url', label: 'edit.fastgptUrl', placeholder: 'edit.fastgptUrlPlaceholder' }],
  36: [{ field: 'base_url', label: 'edit.sunoUrl', placeholder: 'edit.sunoUrlPlaceholder' }],
  39: [{ field: 'other', label: 'edit.accountId', placeholder: 'edit.accountIdPlaceholder' }],
  41: [{ field: 'other', label: 'edit.vertexRegion', placeholder: 'edit.vertexRegionPlaceholder' }],
};

/** True when the type shows its own base URL field instead of the generic proxy field. */
export const hasOwnBaseUrl = (type: number): boolean =>
  (TYPE_FIELDS[type] ?? []).some((entry) => entry.field === 'base_url');

/** The fields only some channel types have (endpoint, API version, model version, account ...). */
export function ChannelTypeFields({ type }: { type: number }) {
  const { t } = useTranslation('channels');
  return (
    <>
      {(TYPE_FIELDS[type] ?? []).map((entry) => (
        <Form.Item key={`${type}-${entry.field}`} name={entry.field} label={t(entry.label)}>
          {type === 41 ? (
            <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} placeholder={t(entry.placeholder)} />
          ) : (
            <Input placeholder={t(entry.placeholder)} autoComplete="off" />
          )}
        </Form.Item>
      ))}
    </>
  );
}
