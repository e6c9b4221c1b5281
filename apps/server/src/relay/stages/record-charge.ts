import type { FastifyBaseLogger } from 'fastify';
import type { ConsumeLogBuilder, Reservation } from '../../billing/ledger/billing-service.ts';
import { SettlementDeferred } from '../../billing/ledger/settlement-deferred.ts';
import type { OptionStore } from '../../options/option-store.ts';
import type { RelayRuntime } from '../relay-runtime.ts';

/** Who and what a settled charge was for, as the bookkeeping after settlement sees it. */
export interface Charge {
  userId: number;
  username: string;
  modelName: string;
  /** Prompt + completion tokens (0 for fixed-price tasks). */
  tokenUsed: number;
}

/**
 * What follows every settlement, relay call or task submit alike: the quota-charged metric, the
 * low-quota notice check and, when DataExportEnabled, the dashboard's quota data. `quota` is what
 * settlement charged: an argument, not a copy of `charge` with it (such a copy per call was
 * promoted by V8's young-generation collections, likely pretenured, ADR-33). Answers undefined when nothing is left
 * to wait for (the relay's common case), else the notice's promise.
 */
export function recordCharge(
  runtime: RelayRuntime,
  options: OptionStore,
  charge: Charge,
  quota: number,
): Promise<void> | undefined {
  runtime.metrics?.quotaCharged(quota);
  if (options.getBoolean('DataExportEnabled')) {
    runtime.quotaData?.record({
      userId: charge.userId,
      username: charge.username,
      modelName: charge.modelName,
      quota,
      tokenUsed: charge.tokenUsed,
    });
  }
  return runtime.quotaNotifier.afterCharge(charge.userId, quota);
}

/**
 * Settles a call at `cost` and records the charge (`recordCharge`); returns what was charged. A
 * settlement the database refused (`SettlementDeferred`: logged and retried by the billing
 * service) does not fail the caller, whose answer is already sent or about to be: it returns 0 and
 * records the charge once a retry writes it.
 */
export function settleAndRecord(
  runtime: RelayRuntime,
  options: OptionStore,
  log: Pick<FastifyBaseLogger, 'error'>,
  settle: { reservation: Reservation; cost: number; channelId: number; buildLog?: ConsumeLogBuilder },
  charge: Charge,
): Promise<number> {
  return runtime.billing.settle(settle.reservation, settle.cost, settle.channelId, settle.buildLog).then(
    (settlement) => {
      const charged = settlement.charged;
      const recording = recordCharge(runtime, options, charge, charged);
      return recording ? recording.then(() => charged) : charged;
    },
    (error: unknown) => {
      if (!(error instanceof SettlementDeferred)) throw error;
      error.written.then(
        (late) =>
          Promise.resolve()
            .then(() => recordCharge(runtime, options, charge, late.charged))
            .catch((failure: unknown) =>
              log.error({ err: failure }, 'recording a retried settlement failed'),
            ),
        () => undefined,
      );
      return 0;
    },
  );
}
