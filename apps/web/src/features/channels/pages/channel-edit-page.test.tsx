import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, ok } from '../../../testing/mock-fetch';
import { adminUser, renderWithProviders } from '../../../testing/render-with-providers';
import { ChannelEditPage } from './channel-edit-page';

const submit = /提\s*交/;

/** Pasting is much faster than typing in jsdom and fills the field the same way. */
async function paste(
  user: ReturnType<typeof renderWithProviders>['user'],
  element: HTMLElement,
  text: string,
) {
  await user.click(element);
  await user.paste(text);
}

describe('ChannelEditPage', () => {
  it('creates a channel: required fields, key hint, fetch needs a key, then comma strings on the wire', async () => {
    const fetch = mockFetch({
      'GET /api/group/': ok(['default', 'vip']),
      'POST /api/channel/': ok([{ id: 9 }]),
    });
    const { user } = renderWithProviders(<ChannelEditPage />, { user: adminUser, route: '/channel/add' });
    await user.click(await screen.findByRole('button', { name: submit }));
    await screen.findByText('请填写渠道名称和渠道密钥！');

    await paste(user, screen.getByLabelText('名称'), 'main');
    await paste(user, screen.getByLabelText('代理'), 'https://up.example/');
    await user.click(screen.getByRole('button', { name: '获取模型列表' }));
    await screen.findByText('请填写密钥');
    await paste(user, screen.getByLabelText('密钥'), 'sk-1');
    await user.click(screen.getByRole('button', { name: submit }));
    await screen.findByText('请至少选择一个模型！');

    await paste(user, screen.getByLabelText('输入自定义模型名称，多个以逗号分隔'), 'm1,m2');
    await user.click(screen.getByRole('button', { name: /^填\s*入$/ }));
    await user.click(screen.getByRole('button', { name: submit }));
    await waitFor(() => expect(fetch.calls('POST /api/channel/')).toHaveLength(1));
    expect(fetch.calls('POST /api/channel/')[0]?.body).toMatchObject({
      type: 1,
      name: 'main',
      key: 'sk-1',
      base_url: 'https://up.example',
      models: 'm1,m2',
      group: 'default',
      priority: 0,
      weight: 0,
      auto_ban: 1,
    });
    expect(await screen.findByTestId('location')).toHaveTextContent('/channel');
  }, 120_000);

  it('loads a channel for editing and keeps the key when it is left empty', async () => {
    const fetch = mockFetch({
      'GET /api/group/': ok(['default']),
      'GET /api/channel/4': ok({
        id: 4,
        type: 15,
        name: 'baidu',
        models: 'ERNIE-4.0-8K',
        group: 'default,vip',
        base_url: '',
        other: '',
        model_mapping: '',
        status_code_mapping: '',
        setting: '',
        tag: 'cn',
        priority: 2,
        weight: 1,
        auto_ban: 0,
        openai_organization: '',
        test_model: '',
      }),
      'PUT /api/channel/': ok({ id: 4, status: 1 }),
    });
    const { user } = renderWithProviders(<ChannelEditPage />, {
      user: adminUser,
      route: '/channel/edit/4',
      path: '/channel/edit/:id',
    });
    await screen.findByDisplayValue('baidu');
    expect(screen.getByText('按照如下格式输入：APIKey|SecretKey')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: submit }));
    await waitFor(() => expect(fetch.calls('PUT /api/channel/')).toHaveLength(1));
    const body = fetch.calls('PUT /api/channel/')[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ id: 4, group: 'default,vip', tag: 'cn', priority: 2, auto_ban: 0 });
    expect(body).not.toHaveProperty('key');
    await screen.findByText('渠道更新成功！');
  }, 60_000);
});
