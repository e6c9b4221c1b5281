import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, ok } from '../../../testing/mock-fetch';
import { normalUser, renderWithProviders } from '../../../testing/render-with-providers';
import { NotificationCard } from './notification-card';
import { isHttpsUrl, parseNotificationSetting } from './notification-settings';

const webhookSetting = JSON.stringify({ notify_type: 'webhook', quota_warning_threshold: 100000 });

describe('NotificationCard', () => {
  it('rejects a webhook URL that is not https', async () => {
    const fetch = mockFetch({ 'PUT /api/user/setting': ok() });
    const { user } = renderWithProviders(<NotificationCard user={{ setting: webhookSetting }} />, {
      user: normalUser,
    });
    await user.type(screen.getByPlaceholderText('https://example.com/webhook'), 'http://hooks.example.com/x');
    await user.click(screen.getByRole('button', { name: '保存设置' }));
    await screen.findByText('Webhook 地址必须以 https:// 开头');
    expect(fetch.calls('PUT /api/user/setting')).toHaveLength(0);
  });

  it('requires a webhook URL when notifying by webhook', async () => {
    const fetch = mockFetch({ 'PUT /api/user/setting': ok() });
    const { user } = renderWithProviders(<NotificationCard user={{ setting: webhookSetting }} />, {
      user: normalUser,
    });
    await user.click(screen.getByRole('button', { name: '保存设置' }));
    await screen.findByText('请输入 Webhook 地址');
    expect(fetch.calls('PUT /api/user/setting')).toHaveLength(0);
  });

  it('saves an https webhook with PUT /api/user/setting and says 保存成功', async () => {
    const fetch = mockFetch({ 'PUT /api/user/setting': ok() });
    const { user } = renderWithProviders(<NotificationCard user={{ setting: webhookSetting }} />, {
      user: normalUser,
    });
    await user.type(
      screen.getByPlaceholderText('https://example.com/webhook'),
      'https://hooks.example.com/x',
    );
    await user.type(screen.getByPlaceholderText('可选'), 's3cret');
    await user.click(screen.getByRole('button', { name: '保存设置' }));
    await screen.findByText('保存成功');
    await waitFor(() => expect(fetch.calls('PUT /api/user/setting')).toHaveLength(1));
    expect(fetch.calls('PUT /api/user/setting')[0]?.body).toEqual({
      notify_type: 'webhook',
      quota_warning_threshold: 100000,
      webhook_url: 'https://hooks.example.com/x',
      webhook_secret: 's3cret',
      notification_email: '',
    });
  });

  it('switches to e-mail fields and offers the threshold presets', async () => {
    mockFetch({});
    const { user } = renderWithProviders(<NotificationCard user={{ setting: '' }} />, { user: normalUser });
    expect(screen.getByPlaceholderText('留空则使用账号绑定的邮箱')).toBeInTheDocument();
    expect(screen.queryByPlaceholderText('https://example.com/webhook')).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Webhook 通知' }));
    await screen.findByPlaceholderText('https://example.com/webhook');
  });
});

describe('notification settings helpers', () => {
  it('accepts only https URLs', () => {
    expect(isHttpsUrl('https://example.com/hook')).toBe(true);
    expect(isHttpsUrl('http://example.com/hook')).toBe(false);
    expect(isHttpsUrl('example.com')).toBe(false);
  });

  it('reads the stored setting with defaults', () => {
    expect(parseNotificationSetting(null)).toMatchObject({
      notify_type: 'email',
      quota_warning_threshold: '500000',
    });
    expect(parseNotificationSetting('{broken')).toMatchObject({ notify_type: 'email' });
    expect(parseNotificationSetting(webhookSetting)).toMatchObject({
      notify_type: 'webhook',
      quota_warning_threshold: '100000',
    });
  });
});
