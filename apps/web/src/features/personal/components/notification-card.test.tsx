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

describe('NotificationCard threshold', () => {
  it('shows the spec presets as buttons beside free input and saves the one chosen', async () => {
    const fetch = mockFetch({ 'PUT /api/user/setting': ok() });
    const { user } = renderWithProviders(<NotificationCard user={{ setting: '' }} />, { user: normalUser });
    for (const label of ['100000 ($0.20)', '500000 ($1.00)', '1000000 ($2.00)', '5000000 ($10.00)']) {
      expect(screen.getByRole('button', { name: label })).toBeInTheDocument();
    }
    await user.click(screen.getByRole('button', { name: '5000000 ($10.00)' }));
    expect(screen.getByLabelText('额度预警阈值')).toHaveValue('5000000');
    await user.click(screen.getByRole('button', { name: '保存设置' }));
    await waitFor(() => expect(fetch.calls('PUT /api/user/setting')).toHaveLength(1));
    expect(fetch.calls('PUT /api/user/setting')[0]?.body).toMatchObject({
      quota_warning_threshold: 5_000_000,
    });
  });

  it('takes a free amount and refuses one that is not a positive number', async () => {
    const fetch = mockFetch({ 'PUT /api/user/setting': ok() });
    const { user } = renderWithProviders(<NotificationCard user={{ setting: '' }} />, { user: normalUser });
    const field = screen.getByLabelText('额度预警阈值');
    await user.clear(field);
    await user.type(field, 'abc');
    await user.click(screen.getByRole('button', { name: '保存设置' }));
    await screen.findByText('预警额度必须是大于 0 的数字');
    expect(fetch.calls('PUT /api/user/setting')).toHaveLength(0);
    await user.clear(screen.getByLabelText('额度预警阈值'));
    await user.type(screen.getByLabelText('额度预警阈值'), '123456');
    await user.click(screen.getByRole('button', { name: '保存设置' }));
    await waitFor(() => expect(fetch.calls('PUT /api/user/setting')).toHaveLength(1));
    expect(fetch.calls('PUT /api/user/setting')[0]?.body).toMatchObject({ quota_warning_threshold: 123_456 });
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
