import { LogType } from '@switchyard/shared';
import type { WalkRule } from './log-batch-deleter.ts';

/**
 * The retention options (options/option-defaults.ts: whole days, 0–3650) and what each removes once rows are older than its days (0 = never):
 * - consume rows (the bulk of the table) are deleted;
 * - error rows are deleted;
 * - the content and other text of consume and error rows is blanked; the row and its numbers
 *   stay, so lists, sums and exports keep their figures.
 * Top-up, management and system rows are the audit trail of money and admin actions, written a
 * few at a time: no option removes them; "clear logs before" does.
 */
export const RETENTION_RULES = [
  { name: 'consume', option: 'LogConsumeRetentionDays', types: [LogType.Consume], action: 'delete' },
  { name: 'error', option: 'LogErrorRetentionDays', types: [LogType.Error], action: 'delete' },
  {
    name: 'detail',
    option: 'LogDetailRetentionDays',
    types: [LogType.Consume, LogType.Error],
    action: 'blank',
  },
] as const satisfies ReadonlyArray<WalkRule & { name: string; option: string }>;

export type RetentionRuleName = (typeof RETENTION_RULES)[number]['name'];

/** The created_at (seconds) before which a rule with `days` applies at `now`; null when it keeps forever. */
export function retentionHorizon(days: number, nowSeconds: number): number | null {
  if (!Number.isInteger(days) || days <= 0) return null;
  return nowSeconds - days * 86_400;
}
