import type { OptionStore } from '../../options/option-store.ts';

/** Groups a user may use: UserUsableGroups plus the user's own group, limited to groups with a ratio. */
export function usableGroupsOf(
  options: OptionStore,
  userGroup: string | null,
): Record<string, { ratio: number; desc: string }> {
  const ratios = options.getJson<Record<string, number>>('GroupRatio') ?? {};
  const usable = { ...(options.getJson<Record<string, string>>('UserUsableGroups') ?? {}) };
  if (userGroup && !(userGroup in usable)) usable[userGroup] = '用户分组';
  const result: Record<string, { ratio: number; desc: string }> = {};
  for (const [name, desc] of Object.entries(usable)) {
    const ratio = ratios[name];
    if (typeof ratio === 'number') result[name] = { ratio, desc };
  }
  return result;
}
