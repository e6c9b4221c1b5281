import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { refreshSiteStatus } from './get-status';
import { settingsKeys } from './settings-keys';

/** One option write: the key and its new string value. */
export interface OptionChange {
  key: string;
  value: string;
}

/** What happened to a batch of option writes. */
export interface SaveOptionsResult {
  saved: string[];
  failed: Array<{ key: string; error: unknown }>;
}

/** PUT /api/option/ {key, value} — one option. */
export function updateOption(change: OptionChange): Promise<unknown> {
  return apiClient.put('/api/option/', { key: change.key, value: change.value });
}

const isFlag = (change: OptionChange) => change.value === 'true' || change.value === 'false';

/**
 * Saves each changed option with its own PUT. Values go first and switches after them, because
 * the server refuses to turn a sign-in method on before its id and secret are stored. Never
 * throws: the result lists what was saved and what failed.
 */
export async function saveOptions(changes: readonly OptionChange[]): Promise<SaveOptionsResult> {
  const result: SaveOptionsResult = { saved: [], failed: [] };
  const run = async (batch: readonly OptionChange[]) => {
    const outcomes = await Promise.allSettled(batch.map((change) => updateOption(change)));
    outcomes.forEach((outcome, index) => {
      const key = (batch[index] as OptionChange).key;
      if (outcome.status === 'fulfilled') result.saved.push(key);
      else result.failed.push({ key, error: outcome.reason });
    });
  };
  await run(changes.filter((change) => !isFlag(change)));
  await run(changes.filter(isFlag));
  return result;
}

/**
 * Saves changed options, then reloads the options and the public status (system name, logo,
 * footer and feature flags shown by the shell). Failures are reported by the caller.
 */
export function useSaveOptionsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveOptions,
    meta: { silentError: true },
    onSuccess: async (result) => {
      if (result.saved.length === 0) return;
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: settingsKeys.options() }),
        refreshSiteStatus(),
      ]);
    },
  });
}
