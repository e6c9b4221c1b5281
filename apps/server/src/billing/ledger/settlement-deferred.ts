import type { Settlement } from './billing-service.ts';

/**
 * What `BillingService.settle` rejects with when the database refused the settlement and it was
 * handed to the retries (ADR-26). The failure is already logged there, so callers do not log it
 * again. The call will be charged later: `written` resolves with what was charged once a retry
 * writes the settlement; if this process stops first, reconciliation settles it and `written`
 * never resolves.
 */
export class SettlementDeferred extends Error {
  constructor(
    readonly failure: unknown,
    readonly written: Promise<Settlement>,
  ) {
    super(
      `settlement deferred (${failure instanceof Error ? failure.message : String(failure)}); it is retried while this process runs`,
    );
    this.name = 'SettlementDeferred';
  }
}
