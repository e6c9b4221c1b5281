import type { TokenView } from '@switchyard/shared';
import { Space, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<number, string> = { 1: 'green', 2: 'red', 3: 'gold', 4: 'default' };

/** Status and group of a token, as one cell. */
export function TokenStatusTag({ token }: { token: Pick<TokenView, 'status' | 'group'> }) {
  const { t } = useTranslation('tokens');
  const known = token.status in COLORS;
  return (
    <Space size={4} wrap>
      <Tag color={COLORS[token.status] ?? 'default'}>
        {known ? t(`status.${token.status}`) : t('status.unknown')}
      </Tag>
      {token.group ? (
        <Tooltip title={t('edit.group')}>
          <Tag color="blue">{token.group}</Tag>
        </Tooltip>
      ) : null}
    </Space>
  );
}
