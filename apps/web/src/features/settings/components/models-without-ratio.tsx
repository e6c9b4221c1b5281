import { SearchOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Flex, Input, Result, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useEnabledModelsQuery } from '../api/get-enabled-models';
import type { OptionMap } from '../api/get-options';
import { mapsFromRows, type PricingMaps, pricingChanges, pricingVersion } from './model-pricing';
import { ModelPricingTable } from './model-pricing-table';
import { filterRows, usePricingMaps, usePricingRows } from './model-ratio-visual-editor';
import { useOptionSaver } from './use-option-saver';

function UnsetModelsBody({ maps, names }: { maps: PricingMaps; names: string[] }) {
  const { t } = useTranslation('settings');
  const state = usePricingRows(() =>
    names.map((name) => ({ name, price: '', ratio: '', completionRatio: '' })),
  );
  const { save, saving } = useOptionSaver();

  const onSave = () => {
    const filled = state.rows.filter(
      (row) => row.price !== '' || row.ratio !== '' || row.completionRatio !== '',
    );
    void save(pricingChanges(maps, mapsFromRows(filled, maps)));
  };

  return (
    <>
      <Typography.Paragraph type="secondary">{t('ratio.unset.help')}</Typography.Paragraph>
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
      />
      {state.batchModal}
    </>
  );
}

/**
 * The "models without a ratio" tab: models with an enabled channel (GET /api/channel/models_enabled)
 * that have neither a fixed price nor a ratio, to be priced one by one or in batches.
 */
export function ModelsWithoutRatio({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings');
  const maps = usePricingMaps(options);
  const query = useEnabledModelsQuery();

  if (!maps) return <Alert type="error" showIcon title={t('ratio.invalidStored')} />;
  if (query.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (query.isError) {
    return (
      <Result
        status="error"
        title={t('ratio.unset.loadFailed')}
        subTitle={query.error.message}
        extra={<Button onClick={() => void query.refetch()}>{t('actions.retry')}</Button>}
      />
    );
  }
  const names = query.data.filter((name) => !(name in maps.ModelPrice) && !(name in maps.ModelRatio));
  if (names.length === 0) return <Empty description={t('ratio.unset.none')} />;
  return <UnsetModelsBody key={`${pricingVersion(options)}:${names.join('\n')}`} maps={maps} names={names} />;
}
