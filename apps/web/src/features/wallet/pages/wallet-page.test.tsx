import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fail, mockFetch, ok } from '../../../testing/mock-fetch';
import { normalUser, renderWithProviders } from '../../../testing/render-with-providers';
import { WalletPage } from './wallet-page';

const self = {
  id: 2,
  username: 'alice',
  group: 'default',
  quota: 1_000_000,
  used_quota: 0,
  request_count: 0,
};

describe('WalletPage', () => {
  it('shows the balance and redeems a code, refreshing the balance', async () => {
    let quota = self.quota;
    const fetch = mockFetch({
      'GET /api/user/self': () => ok({ ...self, quota }),
      'POST /api/user/topup': (request) => {
        if ((request.body as { key: string }).key !== 'GOOD') return fail('无效的兑换码');
        quota += 500_000;
        return ok(500_000);
      },
    });
    const { user } = renderWithProviders(<WalletPage />, {
      user: normalUser,
      route: '/topup',
      status: { display_in_currency: true, quota_per_unit: 500000 },
    });
    await screen.findByText('$2.00');
    await user.click(screen.getByRole('button', { name: /兑\s?换/ }));
    await screen.findByText('请输入兑换码！');
    expect(fetch.calls('POST /api/user/topup')).toHaveLength(0);

    await user.type(screen.getByLabelText('兑换码'), 'BAD');
    await user.click(screen.getByRole('button', { name: /兑\s?换/ }));
    await screen.findByText('无效的兑换码');

    await user.clear(screen.getByLabelText('兑换码'));
    await user.type(screen.getByLabelText('兑换码'), 'GOOD');
    await user.click(screen.getByRole('button', { name: /兑\s?换/ }));
    await screen.findByText('兑换成功！');
    await screen.findByText('成功兑换额度：$1.00');
    await screen.findByText('$3.00');
    expect(screen.queryByRole('button', { name: /获取兑换码/ })).toBeNull();
  });

  it('checks the minimum, confirms the payable sum and posts the payment form', async () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => undefined);
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const fetch = mockFetch({
      'GET /api/user/self': ok(self),
      'POST /api/user/amount': (request) =>
        ok(((request.body as { amount: number }).amount * 7.3).toFixed(2)),
      'POST /api/user/pay': {
        body: {
          success: true,
          message: 'success',
          data: { pid: '7', money: '36.50' },
          url: 'https://pay.test/submit.php',
        },
      },
    });
    const { user } = renderWithProviders(<WalletPage />, {
      user: normalUser,
      route: '/topup',
      status: {
        display_in_currency: true,
        enable_online_topup: true,
        min_topup: 2,
        top_up_link: 'https://shop.test',
      },
    });
    await user.click(await screen.findByRole('button', { name: /获取兑换码/ }));
    expect(open).toHaveBeenCalledWith('https://shop.test', '_blank', 'noopener');

    const amount = screen.getByLabelText('充值数量');
    await user.clear(amount);
    await user.type(amount, '1');
    await screen.findByText('充值数量不能小于2');
    await user.click(screen.getByRole('button', { name: /支付宝/ }));
    await waitFor(() => expect(screen.getAllByText('充值数量不能小于2').length).toBeGreaterThan(1));
    expect(fetch.calls('POST /api/user/pay')).toHaveLength(0);

    await user.clear(amount);
    await user.type(amount, '5');
    await screen.findByText('实付金额：36.50 元');
    await user.click(screen.getByRole('button', { name: /微\s?信/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('$5')).toBeInTheDocument();
    expect(within(dialog).getByText('36.50 元')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: /确\s?定|OK/ }));
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect(fetch.calls('POST /api/user/pay')[0]?.body).toEqual({
      amount: 5,
      top_up_code: '',
      payment_method: 'wx',
    });
  });
});
