import { Button, Popconfirm, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notify } from '../../../lib/notify';
import { useManageUserMutation } from '../api/manage-user';
import type { ManageAction, ManagedUser } from '../api/user-types';
import { userActionState } from './user-action-rules';

/** Row actions of the user list (POST /api/user/manage); see user-action-rules.ts. */
export function UserRowActions({ user, currentRole }: { user: ManagedUser; currentRole: number }) {
  const { t } = useTranslation('users');
  const manage = useManageUserMutation();
  const state = userActionState(user, currentRole);
  if (state.readOnly) return null;

  const run = (action: ManageAction) =>
    manage
      .mutateAsync({ id: user.id, action })
      .then(() => notify.success(t('actions.done')))
      .catch(() => undefined);
  const busy = manage.isPending;

  return (
    <Space size={4} wrap>
      {state.showPromote ? (
        <Popconfirm
          title={t('actions.promoteConfirm')}
          onConfirm={() => run('promote')}
          disabled={state.promoteDisabled}
        >
          <Button size="small" disabled={state.promoteDisabled || busy}>
            {t('actions.promote')}
          </Button>
        </Popconfirm>
      ) : null}
      <Popconfirm
        title={t('actions.demoteConfirm')}
        onConfirm={() => run('demote')}
        disabled={state.demoteDisabled}
      >
        <Button size="small" disabled={state.demoteDisabled || busy}>
          {t('actions.demote')}
        </Button>
      </Popconfirm>
      <Button size="small" disabled={state.toggleDisabled || busy} onClick={() => void run(state.toggle)}>
        {state.toggle === 'disable' ? t('actions.disable') : t('actions.enable')}
      </Button>
      {state.editDisabled ? (
        <Button size="small" disabled>
          {t('actions.edit')}
        </Button>
      ) : (
        <Link to={`/user/edit/${user.id}`}>
          <Button size="small">{t('actions.edit')}</Button>
        </Link>
      )}
      <Popconfirm
        title={t('actions.deleteConfirm')}
        description={t('actions.deleteWarning')}
        okButtonProps={{ danger: true }}
        onConfirm={() => run('delete')}
        disabled={state.deleteDisabled}
      >
        <Button size="small" danger disabled={state.deleteDisabled || busy}>
          {t('actions.delete')}
        </Button>
      </Popconfirm>
    </Space>
  );
}
