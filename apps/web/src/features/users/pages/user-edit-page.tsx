import { Button, Card, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { notify } from '../../../lib/notify';
import { useUserQuery } from '../api/get-user';
import { useUpdateUserMutation } from '../api/update-user';
import { UserEditForm } from '../components/user-edit-form';

/** /user/edit/{id} edits a user (admin); /user/edit without id edits oneself. */
export function UserEditPage() {
  const { t } = useTranslation('users');
  const navigate = useNavigate();
  const params = useParams();
  const id = params.id === undefined ? 'self' : Number(params.id);
  const validId = id === 'self' || (Number.isInteger(id) && id > 0);
  const query = useUserQuery(validId ? id : 'self');
  const mutation = useUpdateUserMutation(id === 'self');

  if (!validId) return <Result status="404" title={t('edit.invalidId')} />;
  if (query.isPending) {
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  }
  if (query.isError) {
    return (
      <Result
        status="error"
        title={t('edit.loadFailed')}
        subTitle={query.error.message}
        extra={[
          <Button key="retry" onClick={() => void query.refetch()}>
            {t('edit.retry')}
          </Button>,
          <Button key="back" type="primary" onClick={() => void navigate('/user')}>
            {t('edit.back')}
          </Button>,
        ]}
      />
    );
  }

  return (
    <Card title={t('edit.title')}>
      <UserEditForm
        key={query.data.id}
        user={query.data}
        self={id === 'self'}
        submitting={mutation.isPending}
        onCancel={() => void navigate(-1)}
        onSubmit={(input) =>
          mutation
            .mutateAsync(input)
            .then(() => {
              notify.success(t('edit.success'));
              return navigate('/user');
            })
            .catch(() => undefined)
        }
      />
    </Card>
  );
}
