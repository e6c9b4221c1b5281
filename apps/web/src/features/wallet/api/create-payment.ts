import type { EpayForm, PaymentMethod } from '@switchyard/shared';
import { type ApiEnvelope, ApiError, EXPIRED_LOGIN_PATH } from '../../../lib/api-client';
import { i18n } from '../../../lib/i18n';
import { clearSessionUser, getSessionUser } from '../../../lib/session';

/** The order to pay: the signed form fields and the page they are posted to. */
export interface PaymentOrder {
  form: EpayForm;
  url: string;
}

const STATUS_MESSAGES: Record<number, string> = {
  429: 'errors.tooManyRequests',
  500: 'errors.internal',
  405: 'errors.demoSite',
};

/**
 * POST /api/user/pay {amount, top_up_code, payment_method} → `data` (the form fields) with `url`
 * beside it. The api-client returns only `data`, so this call reads the body itself and reports
 * failures as unhandled ApiErrors (the caller shows them once).
 */
export async function createPayment(
  amount: number,
  paymentMethod: PaymentMethod,
  topUpCode = '',
): Promise<PaymentOrder> {
  const user = getSessionUser();
  const response = await fetch('/api/user/pay', {
    method: 'POST',
    credentials: 'same-origin',
    headers: {
      Accept: 'application/json',
      'Content-Type': 'application/json',
      ...(user ? { 'New-Api-User': String(user.id) } : {}),
    },
    body: JSON.stringify({ amount, top_up_code: topUpCode, payment_method: paymentMethod }),
  });
  if (response.status === 401) {
    clearSessionUser({ expired: true });
    window.location.assign(EXPIRED_LOGIN_PATH);
    throw new ApiError(i18n.t('errors.loginExpired'), { status: 401, kind: 'http', handled: true });
  }
  const known = STATUS_MESSAGES[response.status];
  if (known) throw new ApiError(i18n.t(known), { status: response.status, kind: 'http', handled: false });
  const body = (await response.json().catch(() => ({}))) as Partial<ApiEnvelope<EpayForm>> & {
    url?: string;
  };
  if (!response.ok || body.success !== true || !body.data || typeof body.url !== 'string' || !body.url) {
    const message = body.message || i18n.t('errors.unknown');
    throw new ApiError(message, { status: response.status, kind: 'envelope', handled: false });
  }
  return { form: body.data, url: body.url };
}
