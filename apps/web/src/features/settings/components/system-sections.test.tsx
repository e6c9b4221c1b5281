import { screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../testing/mock-fetch';
import { adminUser, renderWithProviders } from '../../../testing/render-with-providers';
import type { OptionMap } from '../api/get-options';
import { OptionsBoundary } from './options-boundary';
import { LoginSection, PaymentSection, SignInProviderSections } from './system-sections';
import { fastUser, optionServer } from './test-options';

// Text queries: role queries are slow on antd forms in jsdom.
const saveIn = (id: string) => within(screen.getByTestId(`settings-section-${id}`)).getByText(/^保\s*存$/);
const putBodies = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.calls('PUT /api/option/').map((request) => request.body);

async function typeInto(
  user: ReturnType<typeof renderWithProviders>['user'],
  element: HTMLElement,
  text: string,
) {
  await user.click(element);
  await user.paste(text);
}

function renderSection(
  Section: ComponentType<{ options: OptionMap }>,
  overrides: Record<string, string> = {},
) {
  const server = optionServer(overrides);
  const fetch = mockFetch(server.routes);
  const rendered = renderWithProviders(
    <OptionsBoundary>{(options) => <Section options={options} />}</OptionsBoundary>,
    { user: adminUser },
  );
  return { ...rendered, fetch, server };
}

describe('system settings', () => {
  it('refuses to save payment settings before ServerAddress is filled', async () => {
    const user = fastUser();
    const { fetch } = renderSection(PaymentSection, { ServerAddress: '' });
    await typeInto(user, await screen.findByLabelText('支付地址'), 'https://pay.example.com');
    await user.click(saveIn('payment'));
    await screen.findByText('请先填写并保存服务器地址，再保存支付设置');
    expect(fetch.calls('PUT /api/option/')).toHaveLength(0);
  });

  it('saves payment once ServerAddress is set: trailing slash removed, secret sent only when typed', async () => {
    const user = fastUser();
    const { fetch } = renderSection(PaymentSection, { ServerAddress: 'https://gw.example.com' });
    await typeInto(user, await screen.findByLabelText('支付地址'), 'https://pay.example.com//');
    await user.click(saveIn('payment'));
    await screen.findByText('保存成功');
    expect(putBodies(fetch)).toEqual([{ key: 'PayAddress', value: 'https://pay.example.com' }]);
    await waitFor(() => expect(screen.getByLabelText('支付地址')).toHaveValue('https://pay.example.com'));

    // The write-only key is shown empty with a placeholder and sent only after typing a new value.
    const key = screen.getByLabelText('易支付商户密钥');
    expect(key).toHaveValue('');
    expect(key).toHaveAttribute('placeholder', '敏感信息不会发送到前端显示');
    await typeInto(user, key, 'sekret');
    await user.click(saveIn('payment'));
    await waitFor(() => expect(fetch.calls('PUT /api/option/')).toHaveLength(2));
    expect(putBodies(fetch)[1]).toEqual({ key: 'EpayKey', value: 'sekret' });
    await waitFor(() => expect(key).toHaveValue(''));
  });

  it('asks for confirmation before turning password login off', async () => {
    const user = fastUser();
    const { fetch } = renderSection(LoginSection);
    const toggle = await screen.findByLabelText('允许通过密码进行登录');
    expect(toggle).toBeChecked();

    await user.click(toggle);
    const dialog = () => document.querySelector('.ant-modal-confirm') as HTMLElement;
    await waitFor(() => expect(dialog()).toHaveTextContent('确定要关闭密码登录吗？'));
    await user.click(within(dialog()).getByText(/^取\s*消$/));
    await waitFor(() => expect(document.querySelector('.ant-modal-confirm')).toBeNull());
    expect(toggle).toBeChecked();

    await user.click(toggle);
    await waitFor(() => expect(dialog()).toHaveTextContent('确定要关闭密码登录吗？'));
    await user.click(within(dialog()).getByText(/^确\s*定$/));
    await waitFor(() => expect(toggle).not.toBeChecked());
    await user.click(saveIn('login'));
    await screen.findByText('保存成功');
    expect(putBodies(fetch)).toEqual([{ key: 'PasswordLoginEnabled', value: 'false' }]);
  });

  it('turns password login on without confirmation', async () => {
    const user = fastUser();
    renderSection(LoginSection, { PasswordLoginEnabled: 'false' });
    const toggle = await screen.findByLabelText('允许通过密码进行登录');
    await user.click(toggle);
    expect(toggle).toBeChecked();
    expect(document.querySelector('.ant-modal-confirm')).toBeNull();
  });

  it("saves a provider's id and secret before its switch", async () => {
    const user = fastUser();
    const { fetch } = renderSection(SignInProviderSections);
    await user.click(await screen.findByLabelText('允许通过 GitHub 账户登录和注册'));
    await typeInto(user, screen.getByLabelText('GitHub Client ID'), 'Iv1.abc');
    await typeInto(user, screen.getByLabelText('GitHub Client Secret'), 'shh');
    await user.click(saveIn('github'));
    await screen.findByText('保存成功');
    const keys = putBodies(fetch).map((body) => (body as { key: string }).key);
    expect(keys.slice(0, 2).sort()).toEqual(['GitHubClientId', 'GitHubClientSecret']);
    expect(keys[2]).toBe('GitHubOAuthEnabled');
  });
});
