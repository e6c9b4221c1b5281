import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../testing/mock-fetch';
import { adminUser, renderWithProviders } from '../../../testing/render-with-providers';
import { OtherSettingsPage } from '../pages/other-settings-page';
import { fastUser, optionServer } from './test-options';

const section = (id: string) => screen.getByTestId(`settings-section-other-${id}`);

describe('other settings', () => {
  it('saves each look option alone with its own message and refreshes the shell status', async () => {
    const server = optionServer({}, ['Footer']);
    const fetch = mockFetch({
      ...server.routes,
      'GET /api/status': { body: { success: true, message: '', data: { system_name: 'Gate' } } },
    });
    const user = fastUser();
    renderWithProviders(<OtherSettingsPage />, { user: adminUser });
    const name = await screen.findByLabelText('系统名称', { selector: 'input' });
    await user.clear(name);
    await user.paste('Gate');
    await user.click(screen.getByPlaceholderText('在此输入新的公告内容'));
    await user.paste('维护通知');

    await user.click(within(section('systemName')).getByText('设置系统名称'));
    await screen.findByText('系统名称已更新');
    expect(fetch.calls('PUT /api/option/').map((request) => request.body)).toEqual([
      { key: 'SystemName', value: 'Gate' },
    ]);
    await waitFor(() =>
      expect(JSON.parse(window.localStorage.getItem('status') ?? '{}').system_name).toBe('Gate'),
    );

    // The notice typed above was not saved with the system name; its own button saves it.
    await user.click(within(section('notice')).getByText('设置公告'));
    await screen.findByText('公告已更新');
    expect(fetch.calls('PUT /api/option/')[1]?.body).toEqual({ key: 'Notice', value: '维护通知' });

    await user.click(within(section('footer')).getByText('设置页脚'));
    await screen.findByText('你似乎并没有修改什么');
    await user.click(screen.getByPlaceholderText('在此输入新的页脚'));
    await user.paste('<b>hi</b>');
    await user.click(within(section('footer')).getByText('设置页脚'));
    await screen.findByText('页脚内容更新失败');
  });
});
