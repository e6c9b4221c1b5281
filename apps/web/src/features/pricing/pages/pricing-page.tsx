import { SearchOutlined } from '@ant-design/icons';
import { Alert, Card, Input } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../../lib/session';
import { usePricingQuery } from '../api/get-pricing';
import { GroupBanner } from '../components/group-banner';
import { fuzzyMatch, pickGroup } from '../components/price-rules';
import { PricingTable } from '../components/pricing-table';

/** /pricing (public) — group banner, fuzzy model search, prices per 1M tokens or per call. */
export function PricingPage() {
  const { t } = useTranslation('pricing');
  const user = useSessionUser();
  const pricing = usePricingQuery();
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const groupRatio = pricing.data?.group_ratio ?? {};
  const ownGroup = pickGroup(groupRatio, user?.group);
  const group = chosen && chosen in groupRatio ? chosen : ownGroup;
  const entries = useMemo(
    () => (pricing.data?.data ?? []).filter((entry) => fuzzyMatch(search, entry.model_name)),
    [pricing.data, search],
  );

  return (
    <Card title={t('title')}>
      {pricing.data ? (
        <GroupBanner
          loggedIn={user !== null}
          group={group}
          ownGroup={ownGroup}
          groupRatio={groupRatio}
          usableGroup={pricing.data.usable_group}
          onSelect={setChosen}
        />
      ) : null}
      {pricing.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('loadFailed')}
          description={pricing.error.message}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <Input
        allowClear
        prefix={<SearchOutlined />}
        aria-label={t('search')}
        placeholder={t('search')}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        style={{ maxWidth: 360, marginBottom: 16 }}
      />
      <PricingTable
        entries={entries}
        group={group}
        groupRatio={groupRatio[group] ?? 1}
        loading={pricing.isPending}
      />
    </Card>
  );
}
