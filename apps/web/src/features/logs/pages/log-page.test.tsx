import type { LogView } from '@switchyard/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, ok } from '../../../testing/mock-fetch';
import { adminUser, normalUser, renderWithProviders } from '../../../testing/render-with-providers';
import { LogPage } from './log-page';

const consume: LogView = {
  id: 11,
  created_at: 1_700_000_000,
  type: 2,
  user_id: 2,
  username: 'alice',
  token_id: 1,
  token_name: 'my-token',
  model_name: 'gpt-4o-mini',
  quota: 22500,
  prompt_tokens: 1000,
  completion_tokens: 500,
  use_time: 120,
  is_stream: true,
  group: 'default',
  ip: '',
  content: '',
  other: JSON.stringify({
    frt: 12000,
    model_ratio: 15,
    completion_ratio: 4,
    group_ratio: 0.5,
    model_price: -1,
    group: 'vip',
    admin_info: { use_channel: ['3', '5'] },
  }),
  channel: 5,
  channel_name: 'mock',
};
const topUp: LogView = {
  ...consume,
  id: 12,
  type: 1,
  other: '',
  content: '通过兑换码充值 $1.00',
  model_name: '',
};

describe('LogPage', () => {
  it('lists own logs with totals, colours and expandable billing details', async () => {
    const fetch = mockFetch({
      'GET /api/log/self/': ok({ items: [consume, topUp], page: 1, page_size: 10, total: 2 }),
      'GET /api/log/self/stat': ok({ quota: 25000, rpm: 3, tpm: 1500 }),
    });
    const { user } = renderWithProviders(<LogPage />, {
      user: normalUser,
      route: '/log',
      status: { display_in_currency: true, quota_per_unit: 500000 },
    });
    await screen.findByText('my-token');
    await screen.findByText('消耗额度：$0.05');
    expect(screen.getByText('RPM：3')).toBeInTheDocument();
    expect(screen.getByText('TPM：1500')).toBeInTheDocument();
    // No admin columns for a user.
    expect(screen.queryByText('重试')).toBeNull();
    expect(screen.queryByRole('columnheader', { name: '渠道' })).toBeNull();
    // Latency 120 s is orange, first word 12 s is red; the group comes from the details.
    expect(screen.getByText('120 s').className).toContain('orange');
    expect(screen.getByText('12.0 s').className).toContain('red');
    expect(screen.getByText('vip')).toBeInTheDocument();

    const [list] = fetch.calls('GET /api/log/self/');
    expect(list?.url.searchParams.get('type')).toBe('0');
    expect(list?.url.searchParams.get('p')).toBe('1');
    expect(Number(list?.url.searchParams.get('start_timestamp'))).toBeGreaterThan(0);
    expect(list?.url.searchParams.has('username')).toBe(false);

    const row = screen.getByText('my-token').closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: /展开|expand/i }));
    expect(
      await screen.findByText('提示 1000 tokens / 1M × $15.00 + 补全 500 tokens / 1M × $60.00 = $0.045'),
    ).toBeInTheDocument();
  });

  it('filters by type and model, and shows admin columns and user info', { timeout: 90_000 }, async () => {
    const fetch = mockFetch({
      'GET /api/log/': ok({ items: [consume], page: 1, page_size: 10, total: 1 }),
      'GET /api/log/stat': ok({ quota: 0, rpm: 0, tpm: 0 }),
      'GET /api/user/2': ok({
        id: 2,
        username: 'alice',
        quota: 1_000_000,
        used_quota: 22500,
        request_count: 7,
      }),
    });
    renderWithProviders(<LogPage />, { user: adminUser, route: '/log' });
    await screen.findByText('渠道：3 → 5');
    fireEvent.change(screen.getByLabelText('模型名称'), { target: { value: 'gpt' } });
    fireEvent.change(screen.getByLabelText('用户名称'), { target: { value: 'alice' } });
    fireEvent.mouseDown(screen.getByLabelText('日志类型'));
    fireEvent.click(await screen.findByTitle('消费'));
    fireEvent.click(screen.getByRole('button', { name: /查\s?询/ }));
    await waitFor(() => {
      const last = fetch.calls('GET /api/log/').at(-1);
      expect(last?.url.searchParams.get('model_name')).toBe('gpt');
      expect(last?.url.searchParams.get('username')).toBe('alice');
      expect(last?.url.searchParams.get('type')).toBe('2');
    });
    expect(fetch.calls('GET /api/log/stat').at(-1)?.url.searchParams.get('type')).toBe('2');

    fireEvent.click(screen.getByLabelText('查看用户 alice 的信息'));
    await screen.findByText('7');
  });

  it('says when the total is capped, and searches by request id', { timeout: 90_000 }, async () => {
    const fetch = mockFetch({
      'GET /api/log/': ok({ items: [consume], page: 1, page_size: 10, total: 1000, total_capped: true }),
      'GET /api/log/stat': ok({ quota: 0, rpm: 0, tpm: 0 }),
    });
    renderWithProviders(<LogPage />, { user: adminUser, route: '/log' });
    await screen.findByText('1000+ 条');
    fireEvent.change(screen.getByLabelText('请求 ID'), {
      target: { value: ' 20261207120000123456789abcdefgh ' },
    });
    fireEvent.click(screen.getByRole('button', { name: /查\s?询/ }));
    await waitFor(() => {
      const last = fetch.calls('GET /api/log/').at(-1);
      expect(last?.url.searchParams.get('request_id')).toBe('20261207120000123456789abcdefgh');
    });
    expect(fetch.calls('GET /api/log/stat').at(-1)?.url.searchParams.has('request_id')).toBe(false);
  });

  it('shows an exact total as a count of rows', async () => {
    mockFetch({
      'GET /api/log/self/': ok({ items: [consume], page: 1, page_size: 10, total: 1, total_capped: false }),
      'GET /api/log/self/stat': ok({ quota: 0, rpm: 0, tpm: 0 }),
    });
    renderWithProviders(<LogPage />, { user: normalUser, route: '/log' });
    await screen.findByText('共 1 条');
  });
});

describe('LogPage export', () => {
  it('offers admins a CSV link with the applied filters, their id and the browser offset', {
    timeout: 90_000,
  }, async () => {
    mockFetch({
      'GET /api/log/': ok({ items: [consume], page: 1, page_size: 10, total: 1 }),
      'GET /api/log/stat': ok({ quota: 0, rpm: 0, tpm: 0 }),
    });
    renderWithProviders(<LogPage />, { user: adminUser, route: '/log' });
    await screen.findByText('my-token');
    const link = () => screen.getByRole('link', { name: /导出 CSV/ });
    const before = new URL(link().getAttribute('href') ?? '', 'http://console.test');
    expect(before.pathname).toBe('/api/log/export');
    expect(before.searchParams.get('new_api_user')).toBe(String(adminUser.id));
    expect(before.searchParams.get('utc_offset')).toBe(String(-new Date().getTimezoneOffset()));
    expect(Number(before.searchParams.get('start_timestamp'))).toBeGreaterThan(0);
    expect(before.searchParams.get('username')).toBe('');
    expect(link().getAttribute('target')).toBe('_blank');

    // The link follows the applied filters, not what is typed before searching.
    fireEvent.change(screen.getByLabelText('用户名称'), { target: { value: 'alice' } });
    fireEvent.change(screen.getByLabelText('渠道 ID'), { target: { value: '5' } });
    expect(new URL(link().getAttribute('href') ?? '', 'http://x').searchParams.get('username')).toBe('');
    fireEvent.click(screen.getByRole('button', { name: /查\s?询/ }));
    await waitFor(() => {
      const after = new URL(link().getAttribute('href') ?? '', 'http://x');
      expect(after.searchParams.get('username')).toBe('alice');
      expect(after.searchParams.get('channel')).toBe('5');
    });
  });

  it('shows no export to users', async () => {
    mockFetch({
      'GET /api/log/self/': ok({ items: [consume], page: 1, page_size: 10, total: 1 }),
      'GET /api/log/self/stat': ok({ quota: 0, rpm: 0, tpm: 0 }),
    });
    renderWithProviders(<LogPage />, { user: normalUser, route: '/log' });
    await screen.findByText('my-token');
    expect(screen.queryByRole('link', { name: /导出 CSV|Export CSV/ })).toBeNull();
    expect(screen.queryByText('导出 CSV')).toBeNull();
  });
});
