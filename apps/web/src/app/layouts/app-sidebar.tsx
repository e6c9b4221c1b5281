import { Layout } from 'antd';
import { SidebarMenu } from './sidebar-menu';

/** The desktop sidebar; collapsible, starting collapsed per status.default_collapse_sidebar. */
export function AppSidebar({
  menuKeys,
  collapsed,
  onCollapse,
}: {
  menuKeys: ReadonlySet<string>;
  collapsed: boolean;
  onCollapse: (collapsed: boolean) => void;
}) {
  return (
    <Layout.Sider
      data-testid="app-sidebar"
      collapsible
      collapsed={collapsed}
      onCollapse={onCollapse}
      width={200}
      theme="light"
      style={{ overflow: 'auto', position: 'sticky', top: 64, height: 'calc(100vh - 64px)' }}
    >
      <SidebarMenu menuKeys={menuKeys} />
    </Layout.Sider>
  );
}
