import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LandingContext } from '../../../lib/landing';
import { getSessionUser } from '../../../lib/session';
import { fail, mockFetch, ok } from '../../../testing/mock-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { LoginPage } from '../pages/login-page';
import { LoginForm } from './login-form';

const landing = { afterPasswordLogin: '/setting?tab=personal', afterThirdPartyLogin: '/' };
const loginUi = (
  <LandingContext.Provider value={landing}>
    <LoginForm />
  </LandingContext.Provider>
);
const loginUser = {
  id: 1,
  username: 'root',
  display_name: 'Root User',
  role: 100,
  status: 1,
  group: 'default',
};

describe('LoginForm', () => {
  it('requires the username (or e-mail) and the password', async () => {
    const fetch = mockFetch({});
    const { user } = renderWithProviders(loginUi);
    await user.click(screen.getByRole('button', { name: /登\s*录/ }));
    await screen.findByText('请输入用户名或邮箱');
    await screen.findByText('请输入密码');
    expect(fetch.requests).toHaveLength(0);
  });

  it('stores the user, says 登录成功！ and goes to the landing page', async () => {
    const fetch = mockFetch({ 'POST /api/user/login': ok({ ...loginUser, username: 'alice', role: 1 }) });
    const { user } = renderWithProviders(loginUi, { path: '/login' });
    await user.type(screen.getByPlaceholderText('用户名/邮箱'), 'alice');
    await user.type(screen.getByPlaceholderText('密码'), 'password1');
    await user.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/setting?tab=personal');
    await screen.findByText('登录成功！');
    expect(getSessionUser()).toMatchObject({ id: 1, username: 'alice', role: 1 });
    expect(fetch.calls('POST /api/user/login')[0]?.body).toEqual({
      username: 'alice',
      password: 'password1',
    });
    expect(screen.queryByText('您正在使用默认密码！')).toBeNull();
  });

  it('warns about the default root password', async () => {
    mockFetch({ 'POST /api/user/login': ok(loginUser) });
    const { user } = renderWithProviders(loginUi, { path: '/login' });
    await user.type(screen.getByPlaceholderText('用户名/邮箱'), 'root');
    await user.type(screen.getByPlaceholderText('密码'), '123456');
    await user.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect((await screen.findAllByText('您正在使用默认密码！')).length).toBeGreaterThan(0);
    await screen.findByText('请立刻修改默认密码！');
  });

  it('shows the server message when the login is refused', async () => {
    mockFetch({ 'POST /api/user/login': fail('用户名或密码错误，或用户已被封禁') });
    const { user } = renderWithProviders(loginUi, { path: '/login' });
    await user.type(screen.getByPlaceholderText('用户名/邮箱'), 'alice');
    await user.type(screen.getByPlaceholderText('密码'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: /登\s*录/ }));
    await screen.findByText('用户名或密码错误，或用户已被封禁');
    expect(getSessionUser()).toBeNull();
  });

  it('shows the expired-login message for /login?expired=true', async () => {
    mockFetch({});
    renderWithProviders(<LoginPage />, { route: '/login?expired=true' });
    await screen.findByText('未登录或登录已过期，请重新登录！');
  });
});
