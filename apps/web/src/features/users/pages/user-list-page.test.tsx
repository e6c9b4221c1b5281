import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, ok } from '../../../testing/mock-fetch';
import { adminUser, renderWithProviders } from '../../../testing/render-with-providers';
import type { ManagedUser } from '../api/user-types';
import { UserListPage } from './user-list-page';

const users: ManagedUser[] = [
  {
    id: 2,
    username: 'alice',
    display_name: 'Alice',
    role: 1,
    status: 1,
    group: 'default',
    quota: 500000,
    used_quota: 0,
    request_count: 3,
    deleted_at: null,
  },
  {
    id: 3,
    username: 'gone',
    display_name: '',
    role: 1,
    status: 1,
    group: 'vip',
    quota: 0,
    used_quota: 0,
    request_count: 0,
    deleted_at: '2025-01-01T00:00:00Z',
  },
];

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

describe('UserListPage', () => {
  it('lists users page by page with the remembered page size', async () => {
    window.localStorage.setItem('page-size', '20');
    const fetch = mockFetch({
      'GET /api/user/': ok({ items: users, page: 1, page_size: 20, total: 2 }),
      'GET /api/group/': ok(['default', 'vip']),
    });
    renderWithProviders(<UserListPage />, {
      user: adminUser,
      route: '/user',
      status: { display_in_currency: true },
    });
    await screen.findByText('alice');
    const [request] = fetch.calls('GET /api/user/');
    expect(request?.url.searchParams.get('p')).toBe('1');
    expect(request?.url.searchParams.get('page_size')).toBe('20');
    expect(within(rowOf('alice')).getByText('$1.00')).toBeInTheDocument();
    expect(within(rowOf('alice')).getByText('已激活')).toBeInTheDocument();
  });

  it('shows deactivated rows without actions', async () => {
    mockFetch({
      'GET /api/user/': ok({ items: users, page: 1, page_size: 10, total: 2 }),
      'GET /api/group/': ok([]),
    });
    renderWithProviders(<UserListPage />, { user: adminUser, route: '/user' });
    await screen.findByText('gone');
    expect(within(rowOf('gone')).getByText('已注销')).toBeInTheDocument();
    expect(within(rowOf('gone')).queryByRole('button')).toBeNull();
    expect(within(rowOf('alice')).getByRole('button', { name: /禁\s*用/ })).toBeEnabled();
  });

  it('applies the role and status the manage reply returns', async () => {
    const fetch = mockFetch({
      'GET /api/user/': ok({ items: users, page: 1, page_size: 10, total: 2 }),
      'GET /api/group/': ok([]),
      'POST /api/user/manage': ok({ role: 1, status: 2 }),
    });
    const { user } = renderWithProviders(<UserListPage />, { user: adminUser, route: '/user' });
    await screen.findByText('alice');
    await user.click(within(rowOf('alice')).getByRole('button', { name: /禁\s*用/ }));
    await screen.findByText('操作成功完成！');
    expect(fetch.calls('POST /api/user/manage')[0]?.body).toEqual({ id: 2, action: 'disable' });
    await waitFor(() => expect(within(rowOf('alice')).getByText('已封禁')).toBeInTheDocument());
    expect(within(rowOf('alice')).getByRole('button', { name: /启\s*用/ })).toBeInTheDocument();
  });

  it('searches by keyword through /api/user/search', async () => {
    const fetch = mockFetch({
      'GET /api/user/': ok({ items: users, page: 1, page_size: 10, total: 2 }),
      'GET /api/user/search': ok({ items: [users[0]], page: 1, page_size: 10, total: 1 }),
      'GET /api/group/': ok([]),
    });
    const { user } = renderWithProviders(<UserListPage />, { user: adminUser, route: '/user' });
    await screen.findByText('alice');
    await user.type(screen.getByPlaceholderText('搜索用户的 ID、用户名、显示名称和邮箱地址'), 'ali');
    await user.click(screen.getByRole('button', { name: '查 询' }));
    await waitFor(() => expect(fetch.calls('GET /api/user/search')).toHaveLength(1));
    expect(fetch.calls('GET /api/user/search')[0]?.url.searchParams.get('keyword')).toBe('ali');
  });

  it('refuses to add a user without username and password', async () => {
    const fetch = mockFetch({
      'GET /api/user/': ok({ items: [], page: 1, page_size: 10, total: 0 }),
      'GET /api/group/': ok([]),
      'POST /api/user/': ok(),
    });
    const { user } = renderWithProviders(<UserListPage />, { user: adminUser, route: '/user' });
    await user.click(screen.getByRole('button', { name: /添加用户/ }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByPlaceholderText('请输入用户名'), 'carol');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    await screen.findByText('用户名和密码不能为空！');
    expect(fetch.calls('POST /api/user/')).toHaveLength(0);
  });
});
