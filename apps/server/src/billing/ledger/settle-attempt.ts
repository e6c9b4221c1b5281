import type { NewLog } from '../../db/repositories/log-repository.ts';
import type { Payer } from './balance-moves.ts';

/** One attempt to settle a call, as every database's ledger takes it. */
export interface SettleAttempt {
  /** '' when nothing was reserved. */
  ledgerId: string;
  requestId: string;
  payer: Payer;
  /** The amount reserved (held on the balance). */
  reserved: number;
  /** The call's real cost. */
  target: number;
  channelId: number;
  /** This process's instance id, for a settled row written anew. */
  instanceId: string;
  /** The consume log row from what was charged (null: no log row). */
  buildLog: (charged: number) => NewLog | null;
  /**
   * A retry after a failed attempt: settle only while the row is still reserved, and change
   * nothing when it is not (the failed attempt may have been committed after all).
   */
  onlyIfReserved: boolean;
}

/** Stamps the log row with the settlement time (in place, as the log writer did). */
export function stampLog(log: NewLog | null, at: number): NewLog | null {
  if (log && log.created_at === undefined) log.created_at = at;
  return log;
}
