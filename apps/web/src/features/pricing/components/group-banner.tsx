import { Alert, Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ratioTagColor } from './price-rules';

/**
 * Which group's ratio the prices include (the user's group, or default when logged out), and the
 * usable groups with their ratios; clicking a group shows the prices for it.
 */
export function GroupBanner({
  loggedIn,
  group,
  groupRatio,
  usableGroup,
  onSelect,
}: {
  loggedIn: boolean;
  group: string;
  groupRatio: Record<string, number>;
  usableGroup: Record<string, string>;
  onSelect: (group: string) => void;
}) {
  const { t } = useTranslation('pricing');
  const ratio = groupRatio[group] ?? 1;
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 16 }}
      title={loggedIn ? t('banner.user', { group, ratio }) : t('banner.guest', { group, ratio })}
      description={
        <Flex vertical gap={6}>
          <Typography.Text type="secondary">{t('banner.hint')}</Typography.Text>
          <Flex gap={6} wrap>
            {Object.entries(groupRatio).map(([name, value]) => (
              <Tag.CheckableTag
                key={name}
                checked={name === group}
                onChange={() => onSelect(name)}
                style={{ border: '1px solid rgba(128,128,128,0.3)' }}
              >
                {name}
                {usableGroup[name] ? ` · ${usableGroup[name]}` : ''}{' '}
                <Tag color={ratioTagColor(value)} style={{ marginInlineEnd: 0 }}>
                  {t('ratio.times', { ratio: value })}
                </Tag>
              </Tag.CheckableTag>
            ))}
          </Flex>
        </Flex>
      }
    />
  );
}
