import { Button, Drawer, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { useIsMobile } from '../../../lib/use-is-mobile';
import { useTokenQuery } from '../api/get-token';
import { useCreateTokenMutation, useUpdateTokenMutation } from '../api/save-token';
import { TokenForm } from './token-form';
import { buildTokenBody, newTokenValues, type TokenFormValues, tokenToFormValues } from './token-form-rules';

/** Create (`id` null) or edit a token in a side drawer. */
export function TokenEditDrawer({
  open,
  id,
  onClose,
}: {
  open: boolean;
  id: number | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('tokens');
  const mobile = useIsMobile();
  const creating = id === null;
  const token = useTokenQuery(id ?? 0, open && !creating);
  const create = useCreateTokenMutation();
  const update = useUpdateTokenMutation();

  const submit = (values: TokenFormValues) => {
    const result = buildTokenBody(values, creating);
    if ('error' in result) {
      notify.error(t(`edit.${result.error}`));
      return;
    }
    const saving = creating
      ? create.mutateAsync(result.body)
      : update.mutateAsync({ ...result.body, id: id });
    saving
      .then(() => {
        notify.success(creating ? t('edit.created') : t('edit.updated'));
        onClose();
      })
      .catch(() => undefined);
  };

  let body: React.ReactNode;
  if (creating) {
    body = (
      <TokenForm
        creating
        initialValues={newTokenValues()}
        submitting={create.isPending}
        onSubmit={submit}
        onCancel={onClose}
      />
    );
  } else if (token.isPending) {
    body = <Skeleton active paragraph={{ rows: 10 }} />;
  } else if (token.isError) {
    body = (
      <Result
        status="error"
        title={t('edit.loadFailed')}
        subTitle={token.error.message}
        extra={<Button onClick={() => void token.refetch()}>{t('list.refresh')}</Button>}
      />
    );
  } else {
    body = (
      <TokenForm
        key={token.data.id}
        creating={false}
        initialValues={tokenToFormValues(token.data)}
        submitting={update.isPending}
        onSubmit={submit}
        onCancel={onClose}
      />
    );
  }

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={creating ? t('edit.createTitle') : t('edit.updateTitle')}
      size={mobile ? '100%' : 600}
      destroyOnHidden
    >
      {open ? body : null}
    </Drawer>
  );
}
