import type { LogView } from '@switchyard/shared';
import {
  Flex,
  Table,
  type TableColumnsType,
  type TablePaginationConfig,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { PINNED_RIGHT } from '../../../components/pinned-column';
import { useFormatQuota } from '../../../lib/quota';
import { LogDetails } from './log-details';
import {
  firstWordColor,
  hasBillingDetails,
  LOG_TYPE_COLORS,
  LOG_TYPES,
  type LogOther,
  latencyColor,
  parseLogOther,
  retryPath,
} from './log-rules';
import { UserInfoPopover } from './user-info-popover';

interface LogRow extends LogView {
  parsed: LogOther | null;
  /** The group shown; omitted when the details JSON cannot be read. */
  shownGroup: string;
}

function toRow(log: LogView): LogRow {
  const parsed = parseLogOther(log.other);
  const unreadable = log.other !== '' && parsed === null;
  return { ...log, parsed, shownGroup: unreadable ? '' : (parsed?.group ?? log.group ?? '') };
}

function TimingTags({ log }: { log: LogRow }) {
  const { t } = useTranslation('logs');
  if (!hasBillingDetails(log.type)) return null;
  const frt = typeof log.parsed?.frt === 'number' && log.parsed.frt > 0 ? log.parsed.frt / 1000 : null;
  return (
    <Flex gap={4} wrap>
      <Tag color={latencyColor(log.use_time)}>{t('columns.seconds', { value: log.use_time })}</Tag>
      {log.is_stream && frt !== null ? (
        <Tooltip title={t('columns.firstWord')}>
          <Tag color={firstWordColor(frt)}>{t('columns.seconds', { value: frt.toFixed(1) })}</Tag>
        </Tooltip>
      ) : null}
      <Tag color={log.is_stream ? 'blue' : 'purple'}>
        {log.is_stream ? t('columns.stream') : t('columns.nonStream')}
      </Tag>
    </Flex>
  );
}

/** The log table; rows expand into their billing details. Admins get channel, user and retry columns. */
export function LogTable({
  logs,
  admin,
  loading,
  pagination,
}: {
  logs: LogView[];
  admin: boolean;
  loading: boolean;
  pagination: TablePaginationConfig;
}) {
  const { t } = useTranslation('logs');
  const formatQuota = useFormatQuota();
  const typeKey = (type: number) => LOG_TYPES.find((item) => item.value === type)?.key ?? 'unknown';
  const billing = (render: (log: LogRow) => React.ReactNode) => (_value: unknown, log: LogRow) =>
    hasBillingDetails(log.type) ? render(log) : null;

  const columns: TableColumnsType<LogRow> = [
    {
      title: t('columns.time'),
      dataIndex: 'created_at',
      render: (value: number) => dayjs.unix(value).format('YYYY-MM-DD HH:mm:ss'),
    },
    ...(admin
      ? ([
          {
            title: t('columns.channel'),
            key: 'channel',
            render: billing((log) =>
              log.channel ? (
                <Tooltip title={log.channel_name || t('columns.deletedChannel')}>
                  <Tag>{log.channel}</Tag>
                </Tooltip>
              ) : null,
            ),
          },
          {
            title: t('columns.user'),
            key: 'user',
            render: (_value, log) => <UserInfoPopover userId={log.user_id} username={log.username} />,
          },
        ] satisfies TableColumnsType<LogRow>)
      : []),
    {
      title: t('columns.token'),
      key: 'token',
      render: billing((log) => <Tag color="geekblue">{log.token_name}</Tag>),
    },
    {
      title: t('columns.group'),
      key: 'group',
      render: billing((log) => (log.shownGroup ? <Tag>{log.shownGroup}</Tag> : null)),
    },
    {
      title: t('columns.type'),
      dataIndex: 'type',
      render: (type: number) => (
        <Tag color={LOG_TYPE_COLORS[type] ?? 'default'}>{t(`types.${typeKey(type)}`)}</Tag>
      ),
    },
    {
      title: t('columns.model'),
      key: 'model',
      render: billing((log) =>
        log.parsed?.is_model_mapped ? (
          <Tooltip title={t('columns.mappedTo', { model: log.parsed.upstream_model_name ?? '' })}>
            <Tag color="volcano">{log.model_name}</Tag>
          </Tooltip>
        ) : (
          <Tag color="volcano">{log.model_name}</Tag>
        ),
      ),
    },
    { title: t('columns.timing'), key: 'timing', render: (_value, log) => <TimingTags log={log} /> },
    { title: t('columns.prompt'), key: 'prompt', render: billing((log) => log.prompt_tokens) },
    { title: t('columns.completion'), key: 'completion', render: billing((log) => log.completion_tokens) },
    { title: t('columns.quota'), key: 'quota', render: billing((log) => formatQuota(log.quota)) },
    ...(admin
      ? ([
          {
            title: t('columns.retry'),
            key: 'retry',
            render: billing((log) => {
              const path = retryPath(log.parsed);
              return path.length > 0 ? t('columns.retryPath', { path: path.join(' → ') }) : null;
            }),
          },
        ] satisfies TableColumnsType<LogRow>)
      : []),
    {
      title: t('columns.content'),
      dataIndex: 'content',
      ...PINNED_RIGHT,
      render: (content: string) => (
        <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ maxWidth: 240, marginBottom: 0 }}>
          {content}
        </Typography.Paragraph>
      ),
    },
  ];

  return (
    <Table<LogRow>
      rowKey="id"
      columns={columns}
      dataSource={logs.map(toRow)}
      loading={loading}
      pagination={pagination}
      scroll={{ x: 'max-content' }}
      size="middle"
      expandable={{
        expandedRowRender: (log) => <LogDetails log={log} other={log.parsed} />,
        rowExpandable: (log) => hasBillingDetails(log.type) || log.content !== '',
      }}
    />
  );
}
