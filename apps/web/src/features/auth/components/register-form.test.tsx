import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, ok } from '../../../testing/mock-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { RegisterPage } from '../pages/register-page';
import { RegisterForm } from './register-form';

const submit = () => screen.getByRole('button', { name: /注\s*册/ });

describe('RegisterForm validation', () => {
  it('requires username, password and confirmation', async () => {
    const fetch = mockFetch({});
    const { user } = renderWithProviders(<RegisterForm />);
    await user.click(submit());
    await screen.findByText('请输入用户名');
    await screen.findByText('请输入密码');
    await screen.findByText('请再次输入密码');
    expect(fetch.requests).toHaveLength(0);
  });

  it('limits the username to 12 characters and the password to 8–20', async () => {
    const fetch = mockFetch({});
    const { user } = renderWithProviders(<RegisterForm />);
    await user.type(screen.getByPlaceholderText('输入用户名，最长 12 位'), 'abcdefghijklm');
    await user.type(screen.getByPlaceholderText('输入密码，最短 8 位，最长 20 位'), 'short');
    await user.click(submit());
    await screen.findByText('用户名长度不能超过 12 位！');
    await screen.findByText('密码长度不得小于 8 位！');

    await user.clear(screen.getByPlaceholderText('输入密码，最短 8 位，最长 20 位'));
    await user.type(screen.getByPlaceholderText('输入密码，最短 8 位，最长 20 位'), 'x'.repeat(21));
    await screen.findByText('密码长度不得大于 20 位！');
    expect(fetch.requests).toHaveLength(0);
  });

  it('rejects a confirmation that differs', async () => {
    const fetch = mockFetch({});
    const { user } = renderWithProviders(<RegisterForm />);
    await user.type(screen.getByPlaceholderText('输入用户名，最长 12 位'), 'alice');
    await user.type(screen.getByPlaceholderText('输入密码，最短 8 位，最长 20 位'), 'password1');
    await user.type(screen.getByPlaceholderText('再次输入密码'), 'password2');
    await user.click(submit());
    await screen.findByText('两次输入的密码不一致');
    expect(fetch.requests).toHaveLength(0);
  });

  it('registers with the stored invite code and goes to /login', async () => {
    const fetch = mockFetch({ 'POST /api/user/register': ok() });
    const { user } = renderWithProviders(<RegisterPage />, { route: '/register?aff=AbCd' });
    await user.type(screen.getByPlaceholderText('输入用户名，最长 12 位'), 'alice');
    await user.type(screen.getByPlaceholderText('输入密码，最短 8 位，最长 20 位'), 'password1');
    await user.type(screen.getByPlaceholderText('再次输入密码'), 'password1');
    await user.click(submit());
    expect(await screen.findByTestId('location')).toHaveTextContent('/login');
    expect(window.localStorage.getItem('aff')).toBe('AbCd');
    const [request] = fetch.calls('POST /api/user/register');
    expect(request?.url.searchParams.get('turnstile')).toBe('');
    expect(request?.body).toEqual({
      username: 'alice',
      password: 'password1',
      password2: 'password1',
      aff_code: 'AbCd',
    });
    await screen.findByText('注册成功！');
  });

  it('with e-mail verification: an empty e-mail sends nothing, a filled one starts the 30 s countdown', async () => {
    const fetch = mockFetch({ 'GET /api/verification': ok() });
    const { user } = renderWithProviders(<RegisterForm />, { status: { email_verification: true } });
    await user.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(fetch.requests).toHaveLength(0);

    await user.type(screen.getByPlaceholderText('输入邮箱地址'), 'alice@example.com');
    await user.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByRole('button', { name: /重新发送 \(30\)/ })).toBeDisabled();
    expect(fetch.calls('GET /api/verification')[0]?.url.searchParams.get('email')).toBe('alice@example.com');

    await user.click(submit());
    await screen.findByText('请输入验证码');
  });

  it('asks to wait while the human check has no token', async () => {
    const fetch = mockFetch({});
    const { user } = renderWithProviders(<RegisterForm />, {
      status: { turnstile_check: true, turnstile_site_key: 'site-key' },
    });
    expect(screen.getByTestId('turnstile-widget')).toBeInTheDocument();
    await user.type(screen.getByPlaceholderText('输入用户名，最长 12 位'), 'alice');
    await user.type(screen.getByPlaceholderText('输入密码，最短 8 位，最长 20 位'), 'password1');
    await user.type(screen.getByPlaceholderText('再次输入密码'), 'password1');
    await user.click(submit());
    await screen.findByText('请稍后几秒重试，Turnstile 正在检查用户环境！');
    await waitFor(() => expect(fetch.calls('POST /api/user/register')).toHaveLength(0));
  });

  it('loads the Turnstile script only when the human check is on', () => {
    for (const script of document.head.querySelectorAll('script')) script.remove();
    mockFetch({});
    renderWithProviders(<RegisterForm />);
    expect(document.querySelector('script[src*="challenges.cloudflare.com"]')).toBeNull();
    expect(screen.queryByTestId('turnstile-widget')).toBeNull();
  });
});
