import { Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OptionMap } from '../api/get-options';
import type { OptionFieldKind } from './option-fields';
import { OptionSection } from './option-section';

/** The look of the site; every option has its own button and its own messages. */
const LOOK_OPTIONS: ReadonlyArray<{ key: string; name: string; kind: OptionFieldKind; rows?: number }> = [
  { key: 'Notice', name: 'notice', kind: 'textarea', rows: 6 },
  { key: 'SystemName', name: 'systemName', kind: 'text' },
  { key: 'Logo', name: 'logo', kind: 'text' },
  { key: 'HomePageContent', name: 'homePageContent', kind: 'textarea', rows: 8 },
  { key: 'About', name: 'about', kind: 'textarea', rows: 8 },
  { key: 'Footer', name: 'footer', kind: 'textarea', rows: 4 },
];

/** The other tab: notice, system name, logo, home page content, about and footer, each saved alone. */
export function OtherSections({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings');
  return (
    <Flex vertical gap={16}>
      {LOOK_OPTIONS.map((item) => (
        <OptionSection
          key={item.key}
          id={`other-${item.name}`}
          title={t(`other.${item.name}.title`)}
          options={options}
          fields={[
            {
              key: item.key,
              kind: item.kind,
              label: t(`other.${item.name}.label`),
              help: t(`other.${item.name}.help`),
              placeholder: t(`other.${item.name}.placeholder`),
              width: 'full',
              ...(item.rows ? { rows: item.rows } : {}),
            },
          ]}
          saveLabel={t(`other.${item.name}.save`)}
          messages={{ success: t(`other.${item.name}.success`), failure: t(`other.${item.name}.failure`) }}
        />
      ))}
    </Flex>
  );
}
