import { type EpayForm, PAYMENT_METHODS, type TopUpPayBody } from '@switchyard/shared';
import type { AppServices } from '../../app-services.ts';
import type { TopUpRepository } from '../../db/repositories/top-up-repository.ts';
import type { UserRow } from '../../db/repositories/user-repository.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import { randomAlphanumeric } from '../../plugins/request-id.ts';
import { withEpaySignature } from './epay-signature.ts';
import { isOnlineTopUpEnabled, quoteTopUp, readTopUpSettings, type TopUpQuote } from './top-up-pricing.ts';

type Services = Pick<AppServices, 'options'>;

/** Path of Epay's payment page under PayAddress. */
const SUBMIT_PATH = '/submit.php';
/** Path of the payment notification, under CustomCallbackAddress or ServerAddress. */
export const EPAY_NOTIFY_PATH = '/api/user/epay/notify';

/** Unix seconds now. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

const stripSlash = (address: string) => address.trim().replace(/\/+$/, '');

/** The price of `amount` for this user; refused while online top-up is not configured. */
export function quoteForUser(services: Services, user: UserRow, amount: number): TopUpQuote {
  if (!isOnlineTopUpEnabled(services.options)) throw invalidRequest('管理员未开启在线充值！');
  return quoteTopUp(amount, readTopUpSettings(services.options, user.group));
}

/** Epay `type` for the console's payment method (`zfb` Alipay, `wx` WeChat; Epay's own names pass). */
function epayTypeOf(method: string): string {
  const value = method.trim();
  if (value in PAYMENT_METHODS) return PAYMENT_METHODS[value as keyof typeof PAYMENT_METHODS];
  if (value === 'alipay' || value === 'wxpay') return value;
  throw invalidRequest('不支持的支付方式');
}

/**
 * Creates a pending order and the signed form the console posts to Epay. The order records the
 * dollars bought and the exact sum to pay; the notification must match both trade number and sum.
 */
export async function createTopUpOrder(
  services: Services,
  topUps: TopUpRepository,
  user: UserRow,
  body: TopUpPayBody,
  now = nowSeconds(),
): Promise<{ form: EpayForm; url: string }> {
  const quote = quoteForUser(services, user, body.amount);
  const { options } = services;
  const serverAddress = stripSlash(options.get('ServerAddress'));
  if (serverAddress === '') throw invalidRequest('管理员未设置服务器地址，无法发起在线充值');
  const type = epayTypeOf(body.payment_method);
  const callbackAddress = stripSlash(options.get('CustomCallbackAddress')) || serverAddress;
  for (let attempt = 1; ; attempt++) {
    const tradeNo = `USR${user.id}NO${randomAlphanumeric(8)}${now}`;
    const form = withEpaySignature(
      {
        pid: options.get('EpayId').trim(),
        type,
        out_trade_no: tradeNo,
        notify_url: callbackAddress + EPAY_NOTIFY_PATH,
        return_url: `${serverAddress}/log`,
        name: `TUC${body.amount}`,
        money: quote.money,
        device: 'pc',
      },
      options.get('EpayKey'),
    );
    try {
      await topUps.create({
        user_id: user.id,
        amount: quote.dollars,
        money: Number(quote.money),
        trade_no: tradeNo,
        payment_method: type,
        create_time: now,
      });
      return { form, url: stripSlash(options.get('PayAddress')) + SUBMIT_PATH };
    } catch (error) {
      if (attempt >= 3 || !isUniqueViolation(error)) throw error;
    }
  }
}
