import {
  REDEMPTION_CREATE_MAX_COUNT,
  REDEMPTION_DEFAULT_QUOTA,
  REDEMPTION_NAME_MAX_LENGTH,
  type RedemptionCreateBody,
  RedemptionStatus,
  type RedemptionView,
} from '@switchyard/shared';

export { REDEMPTION_DEFAULT_QUOTA };

/** What the actions column offers for a code (spec §4: enable gone once used, edit only while unused). */
export function redemptionActionState(code: Pick<RedemptionView, 'status'>): {
  toggle: 'enable' | 'disable';
  toggleDisabled: boolean;
  editDisabled: boolean;
} {
  return {
    toggle: code.status === RedemptionStatus.Unused ? 'disable' : 'enable',
    toggleDisabled: code.status === RedemptionStatus.Used,
    editDisabled: code.status !== RedemptionStatus.Unused,
  };
}

export interface RedemptionFormValues {
  name: string;
  quota: number | string | null;
  count: number | string | null;
}

export type RedemptionFormError = 'nameTooLong' | 'quotaInvalid' | 'countInvalid';

/** Parses an integer the way the editor does (text or number); null when it is not one. */
function toInteger(value: number | string | null): number | null {
  if (value === null || value === '') return null;
  const number = typeof value === 'number' ? value : Number(String(value).trim());
  return Number.isSafeInteger(number) ? number : null;
}

/**
 * Checks the editor values: name at most 20 characters (empty on create → the formatted quota),
 * quota a positive integer, count 1..100 on create. Returns the body to send.
 */
export function buildRedemptionBody(
  values: RedemptionFormValues,
  creating: boolean,
  formatQuota: (quota: number) => string,
): { body: RedemptionCreateBody } | { error: RedemptionFormError } {
  const quota = toInteger(values.quota);
  if (quota === null || quota <= 0) return { error: 'quotaInvalid' };
  let name = values.name.trim();
  if (name === '' && creating) name = formatQuota(quota);
  if (name === '' || [...name].length > REDEMPTION_NAME_MAX_LENGTH) return { error: 'nameTooLong' };
  if (!creating) return { body: { name, quota } };
  if (!isRedemptionCount(values.count)) return { error: 'countInvalid' };
  return { body: { name, quota, count: toInteger(values.count) ?? 1 } };
}

/** A batch size the server accepts: an integer from 1 to 100 (more is refused, never clamped). */
export function isRedemptionCount(value: number | string | null): boolean {
  const count = toInteger(value);
  return count !== null && count >= 1 && count <= REDEMPTION_CREATE_MAX_COUNT;
}

/** The text file offered after creation: one code per line, named after the codes' name. */
export function redemptionFile(name: string, keys: string[]): { fileName: string; text: string } {
  const safe = name.replace(/[\\/:*?"<>|]/g, '_').trim() || 'redemptions';
  return { fileName: `${safe}.txt`, text: `${keys.join('\n')}\n` };
}

/** Saves text as a file through a temporary link. */
export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
