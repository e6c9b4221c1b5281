import {
  type LedgerDependencies,
  type ReconcileResult,
  reconcileReserved,
  repeatPasses,
  type SweepDependencies,
  withFormat,
} from './reservation-ledger.ts';

/** What the orphan sweep needs from the billing service: the ledger rows its open calls hold. */
export interface HeldRows {
  heldLedgerIds(): ReadonlySet<string>;
}

/**
 * Closes this process's own 'reserved' rows that none of its calls holds any more and that are
 * older than `olderThanMs`: refunded (or settled from a consume log the call wrote), each with a
 * system log row, as reconciliation closes a dead process's rows. Such a row is a leak — a call
 * that ended without settling or refunding; failed settlements are not orphans, their retries
 * keep them open (ledger-retries.ts). A row is read as orphaned only after the ledger ids held are
 * taken, and only when older than any reservation still being made.
 */
export async function sweepOrphans(
  deps: LedgerDependencies,
  billing: HeldRows,
  olderThanMs: number,
  now = Date.now(),
): Promise<Pick<ReconcileResult, 'refunded' | 'settled'>> {
  const held = billing.heldLedgerIds();
  const rows = await deps.database.db
    .selectFrom('reservations')
    .selectAll()
    .where('instance_id', '=', deps.instanceId)
    .where('state', '=', 'reserved')
    .where('created_at', '<', now - olderThanMs)
    .orderBy('created_at')
    .execute();
  const result = { refunded: 0, settled: 0 };
  for (const row of rows) {
    if (held.has(row.id)) continue;
    try {
      const outcome = await reconcileReserved(deps, row, 'orphan');
      if (outcome) result[outcome] += 1;
    } catch (error) {
      deps.log.error({ err: error, reservation: row.id }, 'orphaned reservation could not be closed');
    }
  }
  if (result.refunded + result.settled > 0) {
    deps.log.warn(result, 'closed reservations of this process that no call held any more');
  }
  return result;
}

/**
 * Runs the orphan sweep every `everyMs` on every node (each sweeps only its own rows). Returns a
 * function that stops it, waiting for a running pass.
 */
export function startOrphanSweeper(
  deps: SweepDependencies,
  billing: HeldRows,
  timing: { everyMs: number; olderThanMs: number },
): () => Promise<void> {
  const ledger = withFormat(deps);
  return repeatPasses(
    timing.everyMs,
    () => sweepOrphans(ledger, billing, timing.olderThanMs).then(() => undefined),
    (error) => deps.log.error({ err: error }, 'orphaned reservation sweep failed'),
  );
}
