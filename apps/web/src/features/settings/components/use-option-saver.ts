import { useTranslation } from 'react-i18next';
import { showApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { type OptionChange, type SaveOptionsResult, useSaveOptionsMutation } from '../api/update-option';

/** Messages of one save button; the defaults are '保存成功' and '保存失败，请重试'. */
export interface SaveMessages {
  success?: string;
  failure?: string;
}

/**
 * Saves changed options (each with its own PUT) and tells the admin how it went:
 * nothing changed → '你似乎并没有修改什么'; all saved → '保存成功'; some failed → '部分保存失败，请重试';
 * all failed → '保存失败，请重试'. The server's reason for each failure is shown too.
 */
export function useOptionSaver() {
  const { t } = useTranslation('settings');
  const mutation = useSaveOptionsMutation();

  const save = async (
    changes: readonly OptionChange[],
    messages: SaveMessages = {},
  ): Promise<SaveOptionsResult | null> => {
    if (changes.length === 0) {
      notify.warning(t('messages.nothingChanged'));
      return null;
    }
    const result = await mutation.mutateAsync(changes);
    for (const failure of result.failed) showApiError(failure.error);
    if (result.failed.length === 0) notify.success(messages.success ?? t('messages.saved'));
    else if (result.saved.length === 0) notify.error(messages.failure ?? t('messages.saveFailed'));
    else notify.error(t('messages.partialFailed'));
    return result;
  };

  return { save, saving: mutation.isPending };
}
