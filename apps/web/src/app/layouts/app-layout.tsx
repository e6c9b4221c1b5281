import { Drawer, Layout } from 'antd';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useMatches } from 'react-router';
import { useSiteStatus } from '../../lib/site-status';
import { useIsMobile } from '../../lib/use-is-mobile';
import { PageLoading } from '../page-loading';
import { AppFooter } from './app-footer';
import { AppHeader } from './app-header';
import { AppSidebar } from './app-sidebar';
import { SidebarMenu } from './sidebar-menu';

/** Route `handle` read by the layout. `chrome: 'bare'` (the home page) drops padding and sidebar. */
export interface RouteHandle {
  chrome?: 'console' | 'bare';
}

/**
 * The navigation shell: header, sidebar (hidden on bare pages and at widths ≤ 600, where a drawer
 * replaces it), content and footer.
 */
export function AppLayout({ menuKeys }: { menuKeys: ReadonlySet<string> }) {
  const { t } = useTranslation();
  const status = useSiteStatus();
  const isMobile = useIsMobile();
  const matches = useMatches();
  const [collapsed, setCollapsed] = useState<boolean>(() => status.default_collapse_sidebar === true);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const bare = matches.some((match) => (match.handle as RouteHandle | undefined)?.chrome === 'bare');
  const showSidebar = !bare && !isMobile;

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <AppHeader
        menuKeys={menuKeys}
        {...(isMobile && !bare ? { onOpenMobileMenu: () => setDrawerOpen(true) } : {})}
      />
      <Layout>
        {showSidebar ? (
          <AppSidebar menuKeys={menuKeys} collapsed={collapsed} onCollapse={setCollapsed} />
        ) : null}
        <Layout.Content
          data-testid="app-content"
          style={{ padding: bare ? 0 : isMobile ? 12 : 24, minWidth: 0 }}
        >
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
      <AppFooter />
      {isMobile ? (
        <Drawer
          placement="left"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          size={240}
          title={t('header.navigation')}
          styles={{ body: { padding: 0 } }}
        >
          <SidebarMenu menuKeys={menuKeys} onNavigate={() => setDrawerOpen(false)} />
        </Drawer>
      ) : null}
    </Layout>
  );
}
