import { Button, Card, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { notify } from '../../../lib/notify';
import { useChannelQuery } from '../api/get-channels';
import { useCreateChannelMutation, useUpdateChannelMutation } from '../api/save-channel';
import { ChannelForm } from '../components/channel-form';
import {
  buildChannelBody,
  type ChannelFormValues,
  channelToFormValues,
  newChannelValues,
} from '../components/channel-form-rules';

/** /channel/add creates a channel; /channel/edit/{id} edits one (admin). */
export function ChannelEditPage() {
  const { t } = useTranslation('channels');
  const navigate = useNavigate();
  const params = useParams();
  const id = params.id === undefined ? null : Number(params.id);
  const validId = id === null || (Number.isInteger(id) && id > 0);
  const channel = useChannelQuery(id ?? 0, id !== null && validId);
  const create = useCreateChannelMutation();
  const update = useUpdateChannelMutation();

  const submit = (values: ChannelFormValues) => {
    const result = buildChannelBody(values, id === null);
    if ('error' in result) {
      notify.error(t(`edit.errors.${result.error}`));
      return;
    }
    const saving = id === null ? create.mutateAsync(result.body) : update.mutateAsync({ ...result.body, id });
    saving
      .then(() => {
        notify.success(id === null ? t('edit.created') : t('edit.updated'));
        return navigate('/channel');
      })
      .catch(() => undefined);
  };

  const title = id === null ? t('edit.createTitle') : t('edit.updateTitle');
  if (!validId) return <Result status="404" title={t('edit.loadFailed')} />;
  if (id !== null && channel.isPending) {
    return (
      <Card title={title}>
        <Skeleton active paragraph={{ rows: 12 }} />
      </Card>
    );
  }
  if (id !== null && channel.isError) {
    return (
      <Result
        status="error"
        title={t('edit.loadFailed')}
        subTitle={channel.error.message}
        extra={[
          <Button key="retry" onClick={() => void channel.refetch()}>
            {t('edit.retry')}
          </Button>,
          <Button key="back" type="primary" onClick={() => void navigate('/channel')}>
            {t('edit.back')}
          </Button>,
        ]}
      />
    );
  }
  return (
    <Card title={title}>
      <ChannelForm
        key={channel.data?.id ?? 'new'}
        channelId={id}
        initialValues={channel.data ? channelToFormValues(channel.data) : newChannelValues()}
        submitting={create.isPending || update.isPending}
        onSubmit={submit}
        onCancel={() => void navigate('/channel')}
      />
    </Card>
  );
}
