import type { OptionStore } from '../../options/option-store.ts';
import type { RelayRuntime } from '../relay-runtime.ts';

/** One settled charge, as the bookkeeping after settlement sees it. */
export interface Charge {
  userId: number;
  username: string;
  modelName: string;
  /** Quota settlement charged. */
  quota: number;
  /** Prompt + completion tokens (0 for fixed-price tasks). */
  tokenUsed: number;
}

/**
 * What follows every settlement, relay call or task submit alike: the quota-charged metric, the
 * low-quota notice check and, when DataExportEnabled, the dashboard's quota data.
 */
export async function recordCharge(
  runtime: RelayRuntime,
  options: OptionStore,
  charge: Charge,
): Promise<void> {
  runtime.metrics?.quotaCharged(charge.quota);
  await runtime.quotaNotifier.afterCharge(charge.userId, charge.quota);
  if (options.getBoolean('DataExportEnabled')) {
    runtime.quotaData?.record({
      userId: charge.userId,
      username: charge.username,
      modelName: charge.modelName,
      quota: charge.quota,
      tokenUsed: charge.tokenUsed,
    });
  }
}
