import { Tabs } from 'antd';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';

export interface QueryTab {
  key: string;
  label: ReactNode;
  children: ReactNode;
}

/**
 * Tabs whose active key lives in a query parameter (`?tab=personal`), so a tab can be linked to
 * and survives reloads. An unknown or missing key shows the first tab. Only the active tab is
 * mounted.
 */
export function QueryTabs({ tabs, param = 'tab' }: { tabs: QueryTab[]; param?: string }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get(param);
  const active = tabs.some((tab) => tab.key === requested) ? (requested as string) : tabs[0]?.key;

  return (
    <Tabs
      activeKey={active}
      destroyOnHidden
      items={tabs}
      onChange={(key) => {
        const next = new URLSearchParams(searchParams);
        next.set(param, key);
        setSearchParams(next, { replace: true });
      }}
    />
  );
}
