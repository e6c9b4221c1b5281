import type { RedemptionView } from '@switchyard/shared';
import { App, Button, Input, Popconfirm, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCopyText } from '../../../components/use-copy-text';
import { notify } from '../../../lib/notify';
import { useDeleteRedemptionMutation, useRedemptionStatusMutation } from '../api/save-redemption';
import { redemptionActionState } from './redemption-rules';

/** Row actions: view, copy, delete, enable/disable (not once used), edit (only while unused). */
export function RedemptionRowActions({ code, onEdit }: { code: RedemptionView; onEdit: () => void }) {
  const { t } = useTranslation('redemptions');
  const { modal } = App.useApp();
  const copy = useCopyText();
  const setStatus = useRedemptionStatusMutation();
  const remove = useDeleteRedemptionMutation();
  const state = redemptionActionState(code);
  const done = () => notify.success(t('actions.done'));

  return (
    <Space size={4} wrap>
      <Button
        size="small"
        onClick={() =>
          modal.info({
            title: t('actions.codeTitle'),
            content: <Input value={code.key} readOnly aria-label={t('actions.codeTitle')} />,
          })
        }
      >
        {t('actions.view')}
      </Button>
      <Button size="small" onClick={() => void copy(code.key, t('actions.copied'))}>
        {t('actions.copy')}
      </Button>
      <Popconfirm
        title={t('actions.deleteConfirm')}
        description={t('actions.deleteWarning')}
        okButtonProps={{ danger: true }}
        onConfirm={() =>
          remove
            .mutateAsync(code.id)
            .then(done)
            .catch(() => undefined)
        }
      >
        <Button size="small" danger>
          {t('actions.delete')}
        </Button>
      </Popconfirm>
      <Button
        size="small"
        disabled={state.toggleDisabled || setStatus.isPending}
        onClick={() =>
          setStatus
            .mutateAsync({ id: code.id, status: state.toggle === 'disable' ? 2 : 1 })
            .then(done)
            .catch(() => undefined)
        }
      >
        {state.toggle === 'disable' ? t('actions.disable') : t('actions.enable')}
      </Button>
      <Button size="small" disabled={state.editDisabled} onClick={onEdit}>
        {t('actions.edit')}
      </Button>
    </Space>
  );
}
