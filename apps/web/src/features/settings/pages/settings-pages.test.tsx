import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../testing/mock-fetch';
import { adminUser, renderWithProviders } from '../../../testing/render-with-providers';
import { fastUser, optionServer } from '../components/test-options';
import { OperationSettingsPage } from './operation-settings-page';
import { SystemSettingsPage } from './system-settings-page';

describe('settings pages', () => {
  it('shows every operation section at phone width', async () => {
    window.innerWidth = 600;
    mockFetch(optionServer().routes);
    renderWithProviders(<OperationSettingsPage />, { user: adminUser });
    for (const title of [
      '通用设置',
      '聊天设置',
      '绘图设置',
      '屏蔽词过滤设置',
      '日志设置',
      '数据看板设置',
      '监控设置',
      '额度设置',
      '分组设置',
      '模型倍率设置',
    ]) {
      expect((await screen.findAllByText(title)).length).toBeGreaterThan(0);
    }
    expect(screen.getByLabelText('单位美元额度')).toHaveValue('500000');
    // Quota amounts show their dollar value (PreConsumedQuota 500 of 500000 per dollar).
    expect(screen.getByText('≈ $0.001')).toBeInTheDocument();
  });

  it('saves log retention days, whole days from 0 to 3650', async () => {
    const server = optionServer();
    const fetch = mockFetch(server.routes);
    const user = fastUser();
    renderWithProviders(<OperationSettingsPage />, { user: adminUser });
    const logs = await screen.findByTestId('settings-section-logs');
    const consume = await within(logs).findByLabelText('消费日志保留天数');
    await user.clear(consume);
    await user.paste('3651');
    await user.click(within(logs).getByText(/^保\s*存$/));
    await screen.findByText('取值范围为 0 ~ 3650');
    expect(fetch.calls('PUT /api/option/')).toHaveLength(0);
    await user.clear(consume);
    await user.paste('30');
    const detail = within(logs).getByLabelText('日志详情保留天数');
    await user.clear(detail);
    await user.paste('7');
    await user.click(within(logs).getByText(/^保\s*存$/));
    await screen.findByText('保存成功');
    expect(server.state.LogConsumeRetentionDays).toBe('30');
    expect(server.state.LogDetailRetentionDays).toBe('7');
    expect(server.state.LogErrorRetentionDays).toBe('0');
  });

  it('shows every system section', async () => {
    mockFetch(optionServer().routes);
    renderWithProviders(<SystemSettingsPage />, { user: adminUser });
    for (const title of [
      '服务器与代理地址',
      '支付设置',
      '登录与注册',
      '邮箱限制',
      'SMTP 邮件设置',
      'GitHub OAuth App',
      'Linux DO OAuth',
      '微信登录',
      'Telegram 登录',
      'Turnstile 人机验证',
    ]) {
      await screen.findByText(title);
    }
    expect(screen.getByText('gmail.com')).toBeInTheDocument();
    expect(screen.getByLabelText('SMTP 端口')).toHaveValue('587');
  });
});
