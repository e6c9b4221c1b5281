import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../testing/mock-fetch';
import { adminUser, normalUser, renderWithProviders } from '../../testing/render-with-providers';
import { SIDEBAR_ENTRIES } from '../navigation';
import { AppHeader } from './app-header';
import { AppLayout } from './app-layout';

const everyKey = new Set<string>(SIDEBAR_ENTRIES.map((entry) => entry.key));

function renderLayout(options: Parameters<typeof renderWithProviders>[1] = {}) {
  mockFetch({});
  return renderWithProviders(null, {
    ...options,
    routes: [
      {
        element: <AppLayout menuKeys={everyKey} />,
        children: [{ path: '*', element: <div>page content</div> }],
      },
    ],
    route: options.route ?? '/setting',
  });
}

describe('AppLayout sidebar', () => {
  it('shows the admin-only entries to admins', () => {
    renderLayout({ user: adminUser });
    const sidebar = screen.getByTestId('app-sidebar');
    expect(within(sidebar).getByText('用户管理')).toBeInTheDocument();
    expect(within(sidebar).getByText('渠道')).toBeInTheDocument();
    expect(within(sidebar).getByText('兑换码')).toBeInTheDocument();
    expect(screen.getByText('page content')).toBeInTheDocument();
  });

  it('hides the admin-only entries from other users', () => {
    renderLayout({ user: normalUser });
    const sidebar = screen.getByTestId('app-sidebar');
    expect(within(sidebar).getByText('设置')).toBeInTheDocument();
    expect(within(sidebar).getByText('令牌')).toBeInTheDocument();
    expect(within(sidebar).queryByText('用户管理')).toBeNull();
    expect(within(sidebar).queryByText('渠道')).toBeNull();
    expect(within(sidebar).queryByText('兑换码')).toBeNull();
  });

  it('follows the dashboard, drawing and task flags', () => {
    renderLayout({
      user: normalUser,
      status: { enable_data_export: true, enable_drawing: false, enable_task: true },
    });
    const sidebar = screen.getByTestId('app-sidebar');
    expect(within(sidebar).getByText('数据看板')).toBeInTheDocument();
    expect(within(sidebar).queryByText('绘图')).toBeNull();
    expect(within(sidebar).getByText('异步任务')).toBeInTheDocument();
  });

  it('starts collapsed when default_collapse_sidebar is on', () => {
    renderLayout({ user: normalUser, status: { default_collapse_sidebar: true } });
    expect(screen.getByTestId('app-sidebar')).toHaveClass('ant-layout-sider-collapsed');
  });

  it('hides the sidebar at widths of 600 px and below', () => {
    window.innerWidth = 600;
    renderLayout({ user: adminUser });
    expect(screen.queryByTestId('app-sidebar')).toBeNull();
    expect(screen.getByRole('button', { name: '打开导航' })).toBeInTheDocument();
  });

  it('reports a chats list that cannot be parsed', async () => {
    window.localStorage.setItem('chats', 'not json');
    renderLayout({ user: normalUser });
    await screen.findByText('聊天数据解析失败');
  });
});

describe('AppHeader', () => {
  const renderHeader = (options: Parameters<typeof renderWithProviders>[1] = {}, now?: Date) => {
    mockFetch({});
    return renderWithProviders(<AppHeader menuKeys={everyKey} {...(now ? { now } : {})} />, options);
  };

  it('offers login and register to visitors', () => {
    renderHeader();
    expect(screen.getByRole('button', { name: /登录/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /注册/ })).toBeInTheDocument();
  });

  it('hides register in self-use mode and shows the purple badge', () => {
    renderHeader({ status: { self_use_mode_enabled: true, demo_site_enabled: true } });
    expect(screen.queryByRole('button', { name: /注册/ })).toBeNull();
    expect(screen.getByTestId('mode-badge')).toHaveTextContent('自用模式');
    expect(screen.getByTestId('mode-badge')).toHaveClass('ant-tag-purple');
  });

  it('shows the blue demo badge', () => {
    renderHeader({ status: { demo_site_enabled: true } });
    expect(screen.getByTestId('mode-badge')).toHaveTextContent('演示站点');
    expect(screen.getByTestId('mode-badge')).toHaveClass('ant-tag-blue');
  });

  it('hides register on mobile', () => {
    window.innerWidth = 400;
    renderHeader();
    expect(screen.getByRole('button', { name: /登录/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /注册/ })).toBeNull();
  });

  it('shows the avatar initial and the username when logged in', () => {
    renderHeader({ user: normalUser, status: { system_name: 'My Gateway' } });
    const menu = screen.getByTestId('user-menu');
    expect(menu).toHaveTextContent('A');
    expect(menu).toHaveTextContent('alice');
    expect(screen.getByText('My Gateway')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /登录/ })).toBeNull();
  });

  it('shows the New Year greeting on January 1st only', () => {
    const { unmount } = renderHeader({}, new Date(2026, 0, 1, 12));
    expect(screen.getByText('Happy New Year!!!')).toBeInTheDocument();
    unmount();
    renderHeader({}, new Date(2026, 0, 2, 12));
    expect(screen.queryByText('Happy New Year!!!')).toBeNull();
  });
});
