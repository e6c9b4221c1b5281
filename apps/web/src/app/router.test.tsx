import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getSiteStatus } from '../lib/site-status';
import { fail, mockFetch, ok } from '../testing/mock-fetch';
import { adminUser, normalUser, renderWithProviders } from '../testing/render-with-providers';
import { appRoutes, availableMenuKeys, buildRouteObjects, landingPaths } from './router';
import { SettingsPage } from './settings-page';

const selfUser = {
  id: 2,
  username: 'alice',
  display_name: 'Alice',
  role: 1,
  status: 1,
  email: '',
  github_id: '',
  wechat_id: '',
  telegram_id: '',
  linux_do_id: '',
  group: 'default',
  quota: 1_000_000,
  used_quota: 250_000,
  request_count: 12,
  aff_count: 0,
  aff_quota: 0,
  aff_history_quota: 0,
  setting: '',
};

describe('route table', () => {
  it('only routes pages that exist and links the sidebar through menu keys', () => {
    expect([...availableMenuKeys].sort()).toEqual([
      'about',
      'channel',
      'chat',
      'detail',
      'home',
      'log',
      'midjourney',
      'playground',
      'pricing',
      'redemption',
      'setting',
      'task',
      'token',
      'topup',
      'user',
    ]);
    expect(appRoutes.find((route) => route.path === '/')?.chrome).toBe('bare');
    expect(landingPaths.afterThirdPartyLogin).toBe('/');
    expect(appRoutes.find((route) => route.path === '/user')?.access).toBe('admin');
    expect(appRoutes.find((route) => route.path === '/login')?.access).toBe('public');
    // Spec: password login lands on the token page.
    expect(landingPaths.afterPasswordLogin).toBe('/token');
    expect(appRoutes.find((route) => route.path === '/channel')?.access).toBe('admin');
    expect(appRoutes.find((route) => route.path === '/pricing')?.access).toBe('public');
  });

  it('sends logged-out visitors of a private page to /login', async () => {
    mockFetch({ 'GET /api/status': ok({ system_name: 'Gate' }) });
    renderWithProviders(null, { routes: buildRouteObjects(), route: '/setting' });
    await screen.findByPlaceholderText('用户名/邮箱');
  });

  it('after a 401 goes to /login?expired=true and says the login expired', async () => {
    mockFetch({
      'GET /api/status': ok({}),
      'GET /api/user/self': { status: 401, body: { success: false, message: '' } },
      'GET /api/user/aff': { status: 401, body: { success: false, message: '' } },
    });
    const { router } = renderWithProviders(null, {
      routes: buildRouteObjects(),
      route: '/setting',
      user: normalUser,
    });
    await screen.findByText('未登录或登录已过期，请重新登录！');
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/login?expired=true');
    expect(window.localStorage.getItem('user')).toBeNull();
  });

  it('shows the not-found page for unknown paths', async () => {
    mockFetch({ 'GET /api/status': ok({}) });
    renderWithProviders(null, { routes: buildRouteObjects(), route: '/no/such/page', user: normalUser });
    await screen.findByText('页面不存在，请检查地址是否正确');
  });

  it('refuses admin pages to other users', async () => {
    mockFetch({ 'GET /api/status': ok({}) });
    renderWithProviders(null, { routes: buildRouteObjects(), route: '/user', user: normalUser });
    await screen.findByText('无权访问此页面');
  });

  it('loads the status on start: stores it and sets the title', async () => {
    mockFetch({ 'GET /api/status': ok({ system_name: 'My Gateway', quota_per_unit: 500000 }) });
    renderWithProviders(null, { routes: buildRouteObjects(), route: '/login' });
    await waitFor(() => expect(document.title).toBe('My Gateway'));
    expect(getSiteStatus().system_name).toBe('My Gateway');
    expect(JSON.parse(window.localStorage.getItem('status') ?? '{}')).toMatchObject({
      system_name: 'My Gateway',
    });
  });

  it('reports a status that cannot be loaded', async () => {
    mockFetch({ 'GET /api/status': fail('db down') });
    renderWithProviders(null, { routes: buildRouteObjects(), route: '/login' });
    await screen.findByText('Unable to connect to server');
  });

  it('opens the personal settings tab and formats the balance in currency', async () => {
    mockFetch({
      'GET /api/status': ok({ display_in_currency: true, quota_per_unit: 500000 }),
      'GET /api/user/self': ok(selfUser),
      'GET /api/user/aff': ok('AbCd'),
    });
    renderWithProviders(null, {
      routes: buildRouteObjects(),
      route: '/setting?tab=personal',
      user: normalUser,
      status: { display_in_currency: true, quota_per_unit: 500000 },
    });
    await screen.findByText('$2.00');
    expect(screen.getByText('$0.50')).toBeInTheDocument();
    await screen.findByDisplayValue('http://localhost:3000/register?aff=AbCd');
  });
});

describe('SettingsPage', () => {
  const tabs = [
    {
      key: 'personal',
      labelKey: 'settings.tabs.personal',
      access: 'user' as const,
      element: <div>personal tab</div>,
    },
    {
      key: 'system',
      labelKey: 'settings.tabs.system',
      access: 'admin' as const,
      element: <div>system tab</div>,
    },
  ];

  it('hides admin tabs from other users', () => {
    renderWithProviders(<SettingsPage tabs={tabs} />, { route: '/setting?tab=system', user: normalUser });
    expect(screen.queryByRole('tab', { name: '系统设置' })).toBeNull();
    expect(screen.getByText('personal tab')).toBeInTheDocument();
  });

  it('opens the tab named in ?tab= and keeps the choice in the URL', async () => {
    const { user, router } = renderWithProviders(<SettingsPage tabs={tabs} />, {
      route: '/setting?tab=system',
      user: adminUser,
    });
    expect(screen.getByText('system tab')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: '个人设置' }));
    await screen.findByText('personal tab');
    expect(router.state.location.search).toBe('?tab=personal');
  });
});
