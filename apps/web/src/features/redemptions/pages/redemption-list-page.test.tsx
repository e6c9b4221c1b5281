import type { RedemptionView } from '@switchyard/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, ok } from '../../../testing/mock-fetch';
import { adminUser, renderWithProviders } from '../../../testing/render-with-providers';
import { RedemptionListPage } from './redemption-list-page';

const code = (id: number, status: number, name: string): RedemptionView => ({
  id,
  user_id: 1,
  key: `${id}`.padStart(32, 'a'),
  status,
  name,
  quota: 100000,
  created_time: 1_700_000_000,
  redeemed_time: status === 3 ? 1_700_000_100 : 0,
  used_user_id: status === 3 ? 42 : 0,
});

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

describe('RedemptionListPage', () => {
  it('lists codes from page 1 and applies the state rules to the row actions', async () => {
    const fetch = mockFetch({
      'GET /api/redemption/': ok({
        items: [code(1, 1, 'fresh'), code(2, 2, 'off'), code(3, 3, 'spent')],
        total: 3,
        page: 1,
        page_size: 10,
      }),
    });
    renderWithProviders(<RedemptionListPage />, {
      user: adminUser,
      route: '/redemption',
      status: { display_in_currency: true },
    });
    await screen.findByText('fresh');
    expect(fetch.calls('GET /api/redemption/')[0]?.url.searchParams.get('p')).toBe('1');
    expect(within(rowOf('fresh')).getByRole('button', { name: /禁\s*用/ })).toBeEnabled();
    expect(within(rowOf('fresh')).getByRole('button', { name: /编\s*辑/ })).toBeEnabled();
    expect(within(rowOf('off')).getByRole('button', { name: /启\s*用/ })).toBeEnabled();
    expect(within(rowOf('off')).getByRole('button', { name: /编\s*辑/ })).toBeDisabled();
    expect(within(rowOf('spent')).getByRole('button', { name: /启\s*用/ })).toBeDisabled();
    expect(within(rowOf('spent')).getByText('42')).toBeInTheDocument();
    expect(within(rowOf('fresh')).getByText('$0.20')).toBeInTheDocument();
  });

  it('creates codes with the default quota and offers the download', async () => {
    const fetch = mockFetch({
      'GET /api/redemption/': ok({ items: [], total: 0, page: 1, page_size: 10 }),
      'POST /api/redemption/': ok(['k1', 'k2']),
    });
    const { user } = renderWithProviders(<RedemptionListPage />, {
      user: adminUser,
      route: '/redemption',
      status: { display_in_currency: true },
    });
    await user.click(await screen.findByRole('button', { name: /复制所选兑换码/ }));
    await screen.findByText('请至少选择一个兑换码！');
    await user.click(screen.getByRole('button', { name: /添加兑换码/ }));
    const dialog = await screen.findByRole('dialog');
    await user.clear(within(dialog).getByLabelText('生成数量'));
    await user.type(within(dialog).getByLabelText('生成数量'), '2');
    await user.click(within(dialog).getByRole('button', { name: /提\s*交/ }));
    await waitFor(() => expect(fetch.calls('POST /api/redemption/')).toHaveLength(1));
    expect(fetch.calls('POST /api/redemption/')[0]?.body).toEqual({ name: '$0.20', quota: 100000, count: 2 });
    await screen.findByText('已生成 2 个兑换码，是否下载兑换码？');
  });
});
