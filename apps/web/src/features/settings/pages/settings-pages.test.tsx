import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../testing/mock-fetch';
import { adminUser, renderWithProviders } from '../../../testing/render-with-providers';
import { optionServer } from '../components/test-options';
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
