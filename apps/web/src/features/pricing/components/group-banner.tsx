import { Alert, Flex, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ratioTagColor } from './price-rules';

/**
 * Which group's ratio the prices include (the user's group, or default when logged out), and the
 * usable groups with their ratios; clicking a group shows the prices for it. A group other than the
 * user's own is announced as the one being viewed: clicking never changes the user's group.
 */
export function GroupBanner({
  loggedIn,
  group,
  ownGroup,
  groupRatio,
  usableGroup,
  onSelect,
}: {
  loggedIn: boolean;
  group: string;
  /** The user's group (default when logged out): the prices they are charged. */
  ownGroup: string;
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
      title={bannerTitle(t, { loggedIn, group, ownGroup, ratio })}
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

/** The banner's sentence: the user's own group, or the group being viewed (and which one is theirs). */
function bannerTitle(
  t: TFunction<'pricing'>,
  { loggedIn, group, ownGroup, ratio }: { loggedIn: boolean; group: string; ownGroup: string; ratio: number },
): string {
  if (group !== ownGroup) {
    return loggedIn
      ? t('banner.viewing', { group, ratio, own: ownGroup })
      : t('banner.guestViewing', { group, ratio });
  }
  return loggedIn ? t('banner.user', { group, ratio }) : t('banner.guest', { group, ratio });
}
