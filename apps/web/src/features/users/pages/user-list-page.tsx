import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../../lib/session';
import { useTableParams } from '../../../lib/use-table-params';
import { useUsersQuery } from '../api/get-users';
import { AddUserModal } from '../components/add-user-modal';
import { UserSearchForm, type UserSearchValues } from '../components/user-search-form';
import { UserTable } from '../components/user-table';

/** /user — paginated user list with search, add user and row actions (admin). */
export function UserListPage() {
  const { t } = useTranslation('users');
  const currentUser = useSessionUser();
  const { params, resetPage, pagination } = useTableParams();
  const [filters, setFilters] = useState<UserSearchValues>({ keyword: '', group: '' });
  const [addOpen, setAddOpen] = useState(false);
  const query = useUsersQuery({ ...params, ...filters });

  return (
    <Card title={t('list.title')}>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
        <UserSearchForm
          onSearch={(values) => {
            setFilters(values);
            resetPage();
          }}
        />
        <Flex gap={8}>
          <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()}>
            {t('list.refresh')}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAddOpen(true)}>
            {t('list.add')}
          </Button>
        </Flex>
      </Flex>
      {query.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('list.loadFailed')}
          description={query.error.message}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <UserTable
        users={query.data?.items ?? []}
        loading={query.isFetching}
        pagination={pagination(query.data?.total ?? 0)}
        currentRole={currentUser?.role ?? 0}
      />
      <AddUserModal open={addOpen} onClose={() => setAddOpen(false)} />
    </Card>
  );
}
