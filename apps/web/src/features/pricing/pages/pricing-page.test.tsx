import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../testing/mock-fetch';
import { normalUser, renderWithProviders } from '../../../testing/render-with-providers';
import { PricingPage } from './pricing-page';

const reply = {
  success: true,
  message: '',
  data: [
    {
      model_name: 'gpt-4o-mini',
      quota_type: 0,
      model_ratio: 0.075,
      model_price: 0,
      owner_by: '',
      completion_ratio: 4,
      enable_groups: ['default', 'vip'],
    },
    {
      model_name: 'mj_imagine',
      quota_type: 1,
      model_ratio: 0,
      model_price: 0.1,
      owner_by: '',
      completion_ratio: 0,
      enable_groups: ['vip'],
    },
  ],
  group_ratio: { default: 1, vip: 4 },
  usable_group: { default: '默认分组', vip: 'VIP' },
};

describe('PricingPage', () => {
  it('shows default-group prices to guests and filters by fuzzy search', async () => {
    mockFetch({ 'GET /api/pricing': { body: reply } });
    renderWithProviders(<PricingPage />, { route: '/pricing' });
    await screen.findByText('未登录，当前显示 default 分组的价格，分组倍率为：1');
    expect(screen.getByText('提示 $0.15 / 1M tokens')).toBeInTheDocument();
    expect(screen.getByText('补全 $0.60 / 1M tokens')).toBeInTheDocument();
    expect(screen.getByText('$0.10 / 次')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('模糊搜索模型名称'), { target: { value: '4omini' } });
    await waitFor(() => expect(screen.queryByText('mj_imagine')).toBeNull());
    expect(screen.getByText('gpt-4o-mini')).toBeInTheDocument();
  });

  it("applies the logged-in user's group ratio and colours it", async () => {
    const fetch = mockFetch({ 'GET /api/pricing': { body: reply } });
    renderWithProviders(<PricingPage />, { route: '/pricing', user: { ...normalUser, group: 'vip' } });
    await screen.findByText('您的分组为：vip，分组倍率为：4');
    expect(screen.getByText('提示 $0.60 / 1M tokens')).toBeInTheDocument();
    expect(screen.getByText('$0.40 / 次')).toBeInTheDocument();
    const [groupTag] = screen.getAllByText('分组倍率：4');
    expect(groupTag?.className).toContain('orange');
    expect(fetch.calls('GET /api/pricing')[0]?.headers.get('New-Api-User')).toBe(String(normalUser.id));
  });

  it("announces a clicked group as the one viewed, never as the user's own", async () => {
    mockFetch({ 'GET /api/pricing': { body: reply } });
    renderWithProviders(<PricingPage />, { route: '/pricing', user: { ...normalUser, group: 'default' } });
    await screen.findByText('您的分组为：default，分组倍率为：1');
    fireEvent.click(screen.getByText(/^vip · VIP/));
    await screen.findByText('当前查看的分组为：vip，分组倍率为：4（您的分组为：default）');
    expect(screen.queryByText('您的分组为：vip，分组倍率为：4')).toBeNull();
    expect(screen.getByText('提示 $0.60 / 1M tokens')).toBeInTheDocument();
    fireEvent.click(screen.getByText(/^default · 默认分组/));
    await screen.findByText('您的分组为：default，分组倍率为：1');
  });

  it('tells a guest which group is viewed', async () => {
    mockFetch({ 'GET /api/pricing': { body: reply } });
    renderWithProviders(<PricingPage />, { route: '/pricing' });
    await screen.findByText('未登录，当前显示 default 分组的价格，分组倍率为：1');
    fireEvent.click(screen.getByText(/^vip · VIP/));
    await screen.findByText('未登录，当前查看 vip 分组的价格，分组倍率为：4');
  });
});
