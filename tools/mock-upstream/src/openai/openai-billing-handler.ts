import type { MockRequestContext } from '../mock-request-context.ts';
import { sendJson } from '../response-writer.ts';

/** Hard limit reported by default (USD). */
export const defaultHardLimitUsd = 100;
/** Usage reported by default (US cents, as OpenAI's usage endpoint counts): 25 USD. */
export const defaultTotalUsageCents = 2500;

function readLimits(context: MockRequestContext): { hardLimitUsd: number; totalUsageCents: number } {
  const balance = context.scenario.balanceUsd;
  return balance === undefined
    ? { hardLimitUsd: defaultHardLimitUsd, totalUsageCents: defaultTotalUsageCents }
    : { hardLimitUsd: balance, totalUsageCents: 0 };
}

/**
 * `GET /dashboard/billing/subscription` (also under `/v1`): the legacy OpenAI subscription
 * object. Balance = `hard_limit_usd` − usage / 100: 75 USD by default, n with `balance-<n>`.
 */
export function handleOpenAiBillingSubscription(context: MockRequestContext): void {
  const { hardLimitUsd } = readLimits(context);
  sendJson(context.response, 200, {
    object: 'billing_subscription',
    has_payment_method: true,
    canceled: false,
    canceled_at: null,
    delinquent: null,
    access_until: 4_102_444_800,
    soft_limit: Math.round(hardLimitUsd * 666.67),
    hard_limit: Math.round(hardLimitUsd * 1666.67),
    system_hard_limit: Math.round(hardLimitUsd * 1666.67),
    soft_limit_usd: hardLimitUsd,
    hard_limit_usd: hardLimitUsd,
    system_hard_limit_usd: hardLimitUsd,
    plan: { title: 'Pay-as-you-go', id: 'payg' },
    account_name: 'Switchyard mock',
    po_number: null,
    billing_email: null,
    tax_ids: null,
    billing_address: null,
    business_address: null,
  });
}

/** `GET /dashboard/billing/usage?start_date=&end_date=` (also under `/v1`): total usage in cents. */
export function handleOpenAiBillingUsage(context: MockRequestContext): void {
  const { totalUsageCents } = readLimits(context);
  sendJson(context.response, 200, { object: 'list', daily_costs: [], total_usage: totalUsageCents });
}
