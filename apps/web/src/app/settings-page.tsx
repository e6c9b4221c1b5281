import { Card } from 'antd';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryTabs } from '../components/query-tabs';
import { hasAccess } from '../lib/access';
import { useSessionUser } from '../lib/session';
import { PageLoading } from './page-loading';
import type { SettingsTabDefinition } from './settings-tabs';

/** /setting: a tab container; the active tab is kept in ?tab=, tabs the user may not open are hidden. */
export function SettingsPage({ tabs }: { tabs: SettingsTabDefinition[] }) {
  const { t } = useTranslation();
  const user = useSessionUser();
  const visible = tabs
    .filter((tab) => hasAccess(tab.access, user))
    .map((tab) => ({
      key: tab.key,
      label: t(tab.labelKey),
      children: <Suspense fallback={<PageLoading />}>{tab.element}</Suspense>,
    }));
  return (
    <Card variant="borderless">
      <QueryTabs tabs={visible} />
    </Card>
  );
}
