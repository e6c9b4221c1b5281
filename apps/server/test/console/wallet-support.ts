import { withEpaySignature } from '../../src/console/wallet/epay-signature.ts';
import type { ConsoleClient } from '../helper.ts';
import { expectOk, setOption } from './console-support.ts';

/** Shared set-up of the wallet tests (not a test file itself). */

export const SERVER_ADDRESS = 'https://gw.example.com';
export const PAY_ADDRESS = 'https://pay.example.com';
export const EPAY_ID = '1001';
export const EPAY_KEY = 'epay-secret-key';

/** Configures online top-up as root through PUT /api/option/. */
export async function configureEpay(root: ConsoleClient): Promise<void> {
  await setOption(root, 'ServerAddress', SERVER_ADDRESS);
  // The trailing slash is dropped on save.
  await setOption(root, 'PayAddress', `${PAY_ADDRESS}/`);
  await setOption(root, 'EpayId', EPAY_ID);
  await setOption(root, 'EpayKey', EPAY_KEY);
}

/** Creates an order through POST /api/user/pay and returns its signed form fields. */
export async function createOrder(
  client: ConsoleClient,
  amount: number,
  paymentMethod = 'zfb',
): Promise<Record<string, string>> {
  return expectOk(await client.post('/api/user/pay', { amount, payment_method: paymentMethod }));
}

/**
 * The notification Epay sends when an order is paid, signed with `key` (the real one by
 * default); `overrides` are applied BEFORE signing (use `{...notification, money}` to alter after).
 */
export function paidNotification(
  order: Record<string, string>,
  overrides: Record<string, string> = {},
  key = EPAY_KEY,
): Record<string, string> {
  return withEpaySignature(
    {
      pid: EPAY_ID,
      trade_no: `2025${Math.floor(Math.random() * 1e9)}`,
      out_trade_no: order.out_trade_no!,
      type: order.type!,
      name: order.name!,
      money: order.money!,
      trade_status: 'TRADE_SUCCESS',
      ...overrides,
    },
    key,
  );
}
