import { Image, Table, type TableColumnsType, type TablePaginationConfig, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PINNED_RIGHT } from '../../../components/pinned-column';
import type { MidjourneyTask } from '../api/task-types';
import { DurationTag, formatTaskTime, ProgressCell, StatusTag } from './task-cells';
import { MJ_CODES } from './task-rules';
import { TextDialogLink } from './text-dialog-link';

/** Drawing tasks: time, (admin) channel, action, id, submit result, status, progress, image, prompts. */
export function MidjourneyTable({
  tasks,
  admin,
  loading,
  pagination,
}: {
  tasks: MidjourneyTask[];
  admin: boolean;
  loading: boolean;
  pagination: TablePaginationConfig;
}) {
  const { t } = useTranslation('tasks');
  const columns: TableColumnsType<MidjourneyTask> = [
    {
      title: t('columns.submitTime'),
      dataIndex: 'submit_time',
      render: (value: number) => formatTaskTime(value, 'ms'),
    },
    {
      title: t('columns.duration'),
      key: 'duration',
      render: (_value, task) => <DurationTag submit={task.submit_time} finish={task.finish_time} unit="ms" />,
    },
    ...(admin
      ? ([
          { title: t('columns.channel'), dataIndex: 'channel_id', render: (id: number) => <Tag>{id}</Tag> },
        ] satisfies TableColumnsType<MidjourneyTask>)
      : []),
    {
      title: t('columns.action'),
      dataIndex: 'action',
      render: (action: string) => (
        <Tag color="blue">{t(`mjActions.${action}`, { defaultValue: action })}</Tag>
      ),
    },
    {
      title: t('columns.taskId'),
      dataIndex: 'mj_id',
      render: (id: string) => <Typography.Text copyable>{id}</Typography.Text>,
    },
    {
      title: t('columns.submitResult'),
      dataIndex: 'code',
      render: (code: number) => {
        const known = MJ_CODES[code];
        return (
          <Tag color={known?.color ?? 'default'}>
            {known ? t(`codes.${known.key}`) : t('codes.unknown', { code })}
          </Tag>
        );
      },
    },
    {
      title: t('columns.status'),
      dataIndex: 'status',
      render: (status: string) => <StatusTag status={status} />,
    },
    {
      title: t('columns.progress'),
      key: 'progress',
      render: (_value, task) => <ProgressCell progress={task.progress} status={task.status} />,
    },
    {
      title: t('columns.image'),
      dataIndex: 'image_url',
      render: (url: string) =>
        url ? (
          <Image src={url} width={64} alt={t('columns.image')} preview={{ mask: t('viewImage') }} />
        ) : (
          t('none')
        ),
    },
    {
      title: t('columns.prompt'),
      dataIndex: 'prompt',
      render: (text: string) => <TextDialogLink text={text} title={t('columns.prompt')} />,
    },
    {
      title: t('columns.promptEn'),
      dataIndex: 'prompt_en',
      render: (text: string) => <TextDialogLink text={text} title={t('columns.promptEn')} />,
    },
    {
      title: t('columns.failReason'),
      dataIndex: 'fail_reason',
      ...PINNED_RIGHT,
      render: (text: string) => <TextDialogLink text={text} title={t('columns.failReason')} />,
    },
  ];
  return (
    <Table<MidjourneyTask>
      rowKey="id"
      columns={columns}
      dataSource={tasks}
      loading={loading}
      pagination={pagination}
      scroll={{ x: 'max-content' }}
      size="middle"
    />
  );
}
