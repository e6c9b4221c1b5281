import { DeleteOutlined } from '@ant-design/icons';
import { Button, Input, Table, type TableColumnsType, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { PINNED_RIGHT } from '../../../components/pinned-column';
import { hasFixedPrice, type ModelPricingRow, type PricingField } from './model-pricing';

/** Model tables page by 10 (spec). */
export const MODEL_TABLE_PAGE_SIZE = 10;

export interface ModelPricingTableProps {
  rows: ModelPricingRow[];
  page: number;
  onPageChange: (page: number) => void;
  selected: string[];
  onSelectedChange: (names: string[]) => void;
  onEdit: (name: string, field: PricingField, value: string) => void;
  onDelete?: (name: string) => void;
}

/**
 * The editable pricing rows (name, fixed price, ratio, completion ratio), 10 per page, with row
 * selection for batch setting. A row with a fixed price has its ratio inputs disabled.
 */
export function ModelPricingTable({
  rows,
  page,
  onPageChange,
  selected,
  onSelectedChange,
  onEdit,
  onDelete,
}: ModelPricingTableProps) {
  const { t } = useTranslation('settings');

  const cell = (field: PricingField, label: string) => (_value: unknown, row: ModelPricingRow) => {
    const locked = field !== 'price' && hasFixedPrice(row);
    const input = (
      <Input
        size="small"
        inputMode="decimal"
        value={row[field]}
        disabled={locked}
        aria-label={`${row.name} ${label}`}
        placeholder={locked ? '' : t('ratio.columns.unset')}
        onChange={(event) => onEdit(row.name, field, event.target.value)}
        style={{ minWidth: 90 }}
      />
    );
    return locked ? <Tooltip title={t('ratio.fixedPriceLocks')}>{input}</Tooltip> : input;
  };

  const columns: TableColumnsType<ModelPricingRow> = [
    {
      title: t('ratio.columns.name'),
      dataIndex: 'name',
      render: (name: string, row) => (
        <span style={{ wordBreak: 'break-all' }}>
          {name}{' '}
          {hasFixedPrice(row) ? (
            <Tag color="orange" style={{ marginInlineStart: 4 }}>
              {t('ratio.fixedPriceTag')}
            </Tag>
          ) : null}
        </span>
      ),
    },
    {
      title: t('ratio.columns.price'),
      key: 'price',
      render: cell('price', t('ratio.columns.price')),
    },
    {
      title: t('ratio.columns.ratio'),
      key: 'ratio',
      render: cell('ratio', t('ratio.columns.ratio')),
    },
    {
      title: t('ratio.columns.completionRatio'),
      key: 'completionRatio',
      render: cell('completionRatio', t('ratio.columns.completionRatio')),
    },
  ];
  if (onDelete) {
    columns.push({
      title: t('ratio.columns.actions'),
      key: 'actions',
      ...PINNED_RIGHT,
      render: (_value, row) => (
        <Button
          size="small"
          danger
          icon={<DeleteOutlined />}
          aria-label={`${t('ratio.delete')} ${row.name}`}
          onClick={() => onDelete(row.name)}
        />
      ),
    });
  }

  return (
    <Table<ModelPricingRow>
      rowKey="name"
      size="small"
      columns={columns}
      dataSource={rows}
      scroll={{ x: 'max-content' }}
      rowSelection={{
        selectedRowKeys: selected,
        preserveSelectedRowKeys: true,
        onChange: (keys) => onSelectedChange(keys.map(String)),
      }}
      pagination={{
        current: page,
        pageSize: MODEL_TABLE_PAGE_SIZE,
        total: rows.length,
        showSizeChanger: false,
        onChange: onPageChange,
        showTotal: (total) => t('ratio.total', { total }),
      }}
    />
  );
}
