import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import type { PricingEntry } from '@switchyard/shared';
import { Flex, Table, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PINNED_RIGHT } from '../../../components/pinned-column';
import { getStoredPageSize, PAGE_SIZE_OPTIONS, storePageSize } from '../../../lib/page-size';
import { formatDollars } from '../../../lib/quota';
import { displayedPrice, ratioTagColor } from './price-rules';

/** The model price table for one group (prices already include the group ratio). */
export function PricingTable({
  entries,
  group,
  groupRatio,
  loading,
}: {
  entries: PricingEntry[];
  group: string;
  groupRatio: number;
  loading: boolean;
}) {
  const { t } = useTranslation('pricing');
  const [pageSize, setPageSize] = useState(getStoredPageSize);
  const columns: TableColumnsType<PricingEntry> = [
    {
      title: t('columns.available'),
      key: 'available',
      width: 80,
      render: (_value, entry) =>
        entry.enable_groups.includes(group) ? (
          <Tooltip title={t('columns.availableYes')}>
            <CheckCircleFilled style={{ color: '#52c41a' }} aria-label={t('columns.availableYes')} />
          </Tooltip>
        ) : (
          <Tooltip title={t('columns.availableNo')}>
            <CloseCircleFilled style={{ color: '#ff4d4f' }} aria-label={t('columns.availableNo')} />
          </Tooltip>
        ),
    },
    {
      title: t('columns.model'),
      dataIndex: 'model_name',
      render: (name: string) => <Typography.Text copyable={{ text: name }}>{name}</Typography.Text>,
    },
    {
      title: t('columns.billing'),
      key: 'billing',
      render: (_value, entry) =>
        entry.quota_type === 1 ? (
          <Tag color="purple">{t('billing.perCall')}</Tag>
        ) : (
          <Tag color="teal">{t('billing.perToken')}</Tag>
        ),
    },
    {
      title: t('columns.groups'),
      dataIndex: 'enable_groups',
      render: (groups: string[]) => (
        <Flex gap={4} wrap>
          {groups.map((name) => (
            <Tag key={name} color={name === group ? 'blue' : 'default'}>
              {name}
            </Tag>
          ))}
        </Flex>
      ),
    },
    {
      title: t('columns.ratio'),
      key: 'ratio',
      render: (_value, entry) => (
        <Flex vertical gap={2} align="start">
          {entry.quota_type === 1 ? (
            <span>{t('ratio.model', { ratio: '-' })}</span>
          ) : (
            <>
              <Tag color={ratioTagColor(entry.model_ratio)}>
                {t('ratio.model', { ratio: entry.model_ratio })}
              </Tag>
              <Tag color={ratioTagColor(entry.completion_ratio)}>
                {t('ratio.completion', { ratio: entry.completion_ratio })}
              </Tag>
            </>
          )}
          <Tag color={ratioTagColor(groupRatio)}>{t('ratio.group', { ratio: groupRatio })}</Tag>
        </Flex>
      ),
    },
    {
      title: t('columns.price'),
      key: 'price',
      ...PINNED_RIGHT,
      render: (_value, entry) => {
        const price = displayedPrice(entry, groupRatio);
        if (price.kind === 'call')
          return <span>{t('price.perCall', { price: formatDollars(price.price) })}</span>;
        return (
          <Flex vertical gap={2}>
            <span>{t('price.prompt', { price: formatDollars(price.prompt) })}</span>
            <span>{t('price.completion', { price: formatDollars(price.completion) })}</span>
          </Flex>
        );
      },
    },
  ];
  return (
    <Table<PricingEntry>
      rowKey="model_name"
      columns={columns}
      dataSource={entries}
      loading={loading}
      scroll={{ x: 'max-content' }}
      size="middle"
      pagination={{
        pageSize,
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
        onShowSizeChange: (_page, size) => {
          storePageSize(size);
          setPageSize(size);
        },
      }}
    />
  );
}
