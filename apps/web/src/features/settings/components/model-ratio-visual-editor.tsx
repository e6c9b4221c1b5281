import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Input, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import type { OptionMap } from '../api/get-options';
import { AddModelModal } from './add-model-modal';
import { BatchSetModal } from './batch-set-modal';
import {
  applyBatch,
  isNumericInput,
  type ModelPricingRow,
  mapsFromRows,
  type PricingField,
  type PricingMaps,
  parsePricingMaps,
  pricingChanges,
  pricingVersion,
  rowsFromMaps,
} from './model-pricing';
import { ModelPricingTable } from './model-pricing-table';
import { useOptionSaver } from './use-option-saver';

/** Parses the stored pricing options, or null when one is not a JSON object. */
export function usePricingMaps(options: OptionMap): PricingMaps | null {
  return useMemo(() => {
    try {
      return parsePricingMaps(options);
    } catch {
      return null;
    }
  }, [options]);
}

/** Rows filtered by a name search. */
export function filterRows(rows: ModelPricingRow[], search: string): ModelPricingRow[] {
  const needle = search.trim().toLowerCase();
  return needle ? rows.filter((row) => row.name.toLowerCase().includes(needle)) : rows;
}

/**
 * Shared state of the pricing tables: rows, search, page, selection, the "numbers only" rule
 * and the batch dialog.
 */
export function usePricingRows(initial: () => ModelPricingRow[]) {
  const { t } = useTranslation('settings');
  const [rows, setRows] = useState(initial);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const [batchOpen, setBatchOpen] = useState(false);

  const edit = (name: string, field: PricingField, value: string) => {
    if (!isNumericInput(value)) {
      notify.error(t('ratio.numberOnly'));
      return;
    }
    setRows((current) => current.map((row) => (row.name === name ? { ...row, [field]: value } : row)));
  };

  const openBatch = () => {
    if (selected.length === 0) {
      notify.error(t('ratio.batch.noSelection'));
      return;
    }
    setBatchOpen(true);
  };

  const batchModal = (
    <BatchSetModal
      open={batchOpen}
      selectedCount={selected.length}
      onCancel={() => setBatchOpen(false)}
      onApply={(input) => {
        setRows((current) => applyBatch(current, new Set(selected), input));
        setBatchOpen(false);
        notify.success(t('ratio.batch.applied', { count: selected.length }));
      }}
    />
  );

  return {
    rows,
    setRows,
    search,
    setSearch: (value: string) => {
      setSearch(value);
      setPage(1);
    },
    page,
    setPage,
    selected,
    setSelected,
    edit,
    openBatch,
    batchModal,
  };
}

function VisualEditorBody({ maps }: { maps: PricingMaps }) {
  const { t } = useTranslation('settings');
  const state = usePricingRows(() => rowsFromMaps(maps));
  const [addOpen, setAddOpen] = useState(false);
  const { save, saving } = useOptionSaver();
  const names = useMemo(() => new Set(state.rows.map((row) => row.name)), [state.rows]);

  const onSave = () => void save(pricingChanges(maps, mapsFromRows(state.rows)));

  return (
    <>
      <Typography.Paragraph type="secondary">{t('ratio.visual.help')}</Typography.Paragraph>
      <Flex gap={8} wrap justify="space-between" style={{ marginBottom: 12 }}>
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('ratio.search')}
          value={state.search}
          onChange={(event) => state.setSearch(event.target.value)}
          style={{ maxWidth: 280 }}
        />
        <Flex gap={8} wrap>
          <Button icon={<PlusOutlined />} onClick={() => setAddOpen(true)}>
            {t('ratio.add.button')}
          </Button>
          <Button onClick={state.openBatch}>{t('ratio.batch.button')}</Button>
          <Button type="primary" loading={saving} onClick={onSave}>
            {t('ratio.save')}
          </Button>
        </Flex>
      </Flex>
      <ModelPricingTable
        rows={filterRows(state.rows, state.search)}
        page={state.page}
        onPageChange={state.setPage}
        selected={state.selected}
        onSelectedChange={state.setSelected}
        onEdit={state.edit}
        onDelete={(name) => {
          state.setRows((current) => current.filter((row) => row.name !== name));
          state.setSelected((current) => current.filter((selected) => selected !== name));
        }}
      />
      <AddModelModal
        open={addOpen}
        existingNames={names}
        onCancel={() => setAddOpen(false)}
        onAdd={(row) => {
          state.setRows((current) => [row, ...current]);
          state.setSearch('');
          setAddOpen(false);
        }}
      />
      {state.batchModal}
    </>
  );
}

/** The visual tab of the model ratio editor: every priced model as an editable row. */
export function ModelRatioVisualEditor({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings');
  const maps = usePricingMaps(options);
  if (!maps) return <Alert type="error" showIcon title={t('ratio.invalidStored')} />;
  return <VisualEditorBody key={pricingVersion(options)} maps={maps} />;
}
