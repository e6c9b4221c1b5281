import { type Static, Type } from '@sinclair/typebox';

/** Epay payment types, by the `payment_method` the console sends. */
export const PAYMENT_METHODS = { zfb: 'alipay', wx: 'wxpay' } as const;
export type PaymentMethod = keyof typeof PAYMENT_METHODS;

/** States of a `top_ups` row. */
export const TopUpStatus = { Pending: 'pending', Success: 'success' } as const;

/**
 * POST /api/user/amount — preview what a top-up costs. `amount` is in dollars when the site shows
 * currency (DisplayInCurrencyEnabled), otherwise in raw quota units (a whole number of dollars'
 * worth: a multiple of QuotaPerUnit). `top_up_code` is accepted and ignored, as in the reference.
 * `data` of the reply is the payable money as a string with two decimals (`"21.90"`).
 */
export const TopUpAmountBody = Type.Object({
  amount: Type.Integer(),
  top_up_code: Type.Optional(Type.String({ maxLength: 255 })),
});
export type TopUpAmountBody = Static<typeof TopUpAmountBody>;

/** POST /api/user/pay — create an Epay order; `payment_method` is `zfb` (Alipay) or `wx` (WeChat Pay). */
export const TopUpPayBody = Type.Object({
  amount: Type.Integer(),
  payment_method: Type.String({ maxLength: 32 }),
  top_up_code: Type.Optional(Type.String({ maxLength: 255 })),
});
export type TopUpPayBody = Static<typeof TopUpPayBody>;

/** The signed form fields the console posts (as a hidden form) to `url`. */
export interface EpayForm {
  pid: string;
  type: string;
  out_trade_no: string;
  notify_url: string;
  return_url: string;
  name: string;
  money: string;
  device: string;
  sign: string;
  sign_type: 'MD5';
}

/**
 * Reply of POST /api/user/pay: the console envelope plus `url` (`<PayAddress>/submit.php`).
 * `message` is `success` as the reference's clients expect.
 */
export interface TopUpPayReply {
  success: true;
  message: 'success';
  data: EpayForm;
  url: string;
}
