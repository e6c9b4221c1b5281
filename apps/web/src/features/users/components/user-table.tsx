import { Table, type TableColumnsType, type TablePaginationConfig, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PINNED_RIGHT } from '../../../components/pinned-column';
import { isAdminRole, isRootRole } from '../../../lib/access';
import { useFormatQuota } from '../../../lib/quota';
import { isDeactivated, type ManagedUser, UserStatus } from '../api/user-types';
import { UserRowActions } from './user-row-actions';

export function RoleTag({ role }: { role: number }) {
  const { t } = useTranslation('users');
  if (isRootRole(role)) return <Tag color="orange">{t('roles.root')}</Tag>;
  if (isAdminRole(role)) return <Tag color="yellow">{t('roles.admin')}</Tag>;
  return <Tag color="blue">{t('roles.common')}</Tag>;
}

export function StatusTag({ user }: { user: ManagedUser }) {
  const { t } = useTranslation('users');
  if (isDeactivated(user)) return <Tag color="default">{t('status.deactivated')}</Tag>;
  if (user.status === UserStatus.Enabled) return <Tag color="green">{t('status.enabled')}</Tag>;
  if (user.status === UserStatus.Disabled) return <Tag color="red">{t('status.disabled')}</Tag>;
  return <Tag color="default">{t('status.unknown')}</Tag>;
}

/** The user list table (columns per the user management screen). */
export function UserTable({
  users,
  loading,
  pagination,
  currentRole,
}: {
  users: ManagedUser[];
  loading: boolean;
  pagination: TablePaginationConfig;
  currentRole: number;
}) {
  const { t } = useTranslation('users');
  const formatQuota = useFormatQuota();

  const columns: TableColumnsType<ManagedUser> = [
    { title: t('columns.id'), dataIndex: 'id', width: 80 },
    {
      title: t('columns.username'),
      dataIndex: 'username',
      render: (_value, user) => (
        <div>
          <Typography.Text>{user.username}</Typography.Text>
          {user.display_name && user.display_name !== user.username ? (
            <div>
              <Typography.Text type="secondary">{user.display_name}</Typography.Text>
            </div>
          ) : null}
        </div>
      ),
    },
    {
      title: t('columns.group'),
      dataIndex: 'group',
      render: (group: string) => <Tag>{group || 'default'}</Tag>,
    },
    {
      title: t('columns.statistics'),
      key: 'statistics',
      render: (_value, user) => (
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 4 }}>
          <Tooltip title={t('columns.remainingQuota')}>
            <Tag color="green">{formatQuota(user.quota)}</Tag>
          </Tooltip>
          <Tooltip title={t('columns.usedQuota')}>
            <Tag color="blue">{formatQuota(user.used_quota)}</Tag>
          </Tooltip>
          <Tooltip title={t('columns.requestCount')}>
            <Tag color="cyan">{user.request_count}</Tag>
          </Tooltip>
        </div>
      ),
    },
    { title: t('columns.role'), dataIndex: 'role', render: (role: number) => <RoleTag role={role} /> },
    { title: t('columns.status'), dataIndex: 'status', render: (_value, user) => <StatusTag user={user} /> },
    {
      title: t('columns.actions'),
      key: 'actions',
      ...PINNED_RIGHT,
      render: (_value, user) => <UserRowActions user={user} currentRole={currentRole} />,
    },
  ];

  return (
    <Table<ManagedUser>
      rowKey="id"
      columns={columns}
      dataSource={users}
      loading={loading}
      pagination={pagination}
      scroll={{ x: 'max-content' }}
      size="middle"
    />
  );
}
