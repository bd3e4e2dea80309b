import {
  CheckCircleFilled,
  CloseCircleFilled,
  DeleteOutlined,
  EditOutlined,
  KeyOutlined,
  LogoutOutlined,
} from '@ant-design/icons';
import { mayActOnGroup, USERS_PAGE_SIZE, type User } from '@rodmenys/contract';
import { App, Button, Card, Input, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteUser, useSignOutEverywhere, useUsers } from '../../api/users';
import { LoadError, useErrorText } from '../../components/load-error';
import { useConfirm } from '../../components/modal-host';
import { useServerPaging } from '../../components/pagination';
import { formatDateTime } from '../../format';
import { useSession } from '../../session';
import { EditUserModal } from './edit-user-modal';
import { RightsModal } from './rights-modal';

type RowState = { kind: 'deleting' } | { kind: 'error'; message: string };

/** The "waiting for access" list shows this many, newest first (the table below has them all). */
const WAITING_PAGE_SIZE = 20;

/**
 * Users (groups 1 and 2): server-paged list of the accounts the server lets the caller reach, edit group and
 * active flag, rights, sign out everywhere, delete.
 */
export default function UsersPage() {
  const { t } = useTranslation();
  const me = useSession()!;
  const { page, pageSize, setPage, tableProps } = useServerPaging(USERS_PAGE_SIZE);
  const [search, setSearch] = useState('');
  const users = useUsers({ page, pageSize, search: search || undefined });
  const waiting = useUsers({ waiting: true, pageSize: WAITING_PAGE_SIZE });
  const deleteUser = useDeleteUser();
  const signOutEverywhere = useSignOutEverywhere();
  const { message } = App.useApp();
  const confirm = useConfirm();
  const errorText = useErrorText();
  const [rowState, setRowState] = useState<Record<number, RowState>>({});
  const [editing, setEditing] = useState<User | null>(null);
  const [granting, setGranting] = useState<User | null>(null);

  const mayManage = (user: User) => user.Id !== me.Id && mayActOnGroup(me.GroupId, user.GroupId);
  const remove = async (user: User) => {
    const yes = await confirm({
      title: t('users.deleteTitle'),
      content: t('users.deleteText', { name: `${user.FirstName} ${user.LastName}`, username: user.Username }),
      okText: t('common.delete'),
      okButtonProps: { danger: true },
    });
    if (!yes) return;
    setRowState((s) => ({ ...s, [user.Id]: { kind: 'deleting' } }));
    try {
      await deleteUser.mutateAsync({ params: { id: user.Id } });
      setRowState(({ [user.Id]: _, ...rest }) => rest);
    } catch (error) {
      setRowState((s) => ({ ...s, [user.Id]: { kind: 'error', message: errorText(error) } }));
    }
  };

  const signOutUser = async (user: User) => {
    const yes = await confirm({
      title: t('users.signOutTitle'),
      content: t('users.signOutText', { name: `${user.FirstName} ${user.LastName}`, username: user.Username }),
      okText: t('users.signOutEverywhere'),
    });
    if (!yes) return;
    try {
      await signOutEverywhere.mutateAsync({ params: { id: user.Id } });
      message.success(t('users.signedOut', { username: user.Username }));
    } catch (error) {
      message.error(errorText(error));
    }
  };

  const columns: TableColumnsType<User> = [
    {
      title: t('users.username'),
      dataIndex: 'Username',
      render: (username: string, user) => {
        const state = rowState[user.Id];
        return (
          <Space size={4} wrap>
            <Typography.Text strong>{username}</Typography.Text>
            {state?.kind === 'deleting' && <Tag color="processing">{t('users.deleting')}</Tag>}
            {state?.kind === 'error' && (
              <Tag color="error">
                {t('users.deleteFailed')}: {state.message}
              </Tag>
            )}
          </Space>
        );
      },
    },
    { title: t('users.name'), key: 'name', render: (_, u) => `${u.FirstName} ${u.LastName}` },
    { title: t('users.group'), dataIndex: 'GroupId', render: (g: User['GroupId']) => t(`groups.${g}`) },
    { title: t('users.email'), dataIndex: 'Email', responsive: ['lg'] },
    { title: t('users.added'), dataIndex: 'Added', render: formatDateTime, responsive: ['md'] },
    { title: t('users.updated'), dataIndex: 'Updated', render: formatDateTime, responsive: ['md'] },
    {
      title: t('users.active'),
      dataIndex: 'Active',
      align: 'center',
      render: (active: boolean) =>
        active ? (
          <CheckCircleFilled role="img" aria-label={t('common.yes')} style={{ color: '#52c41a' }} />
        ) : (
          <CloseCircleFilled role="img" aria-label={t('common.no')} style={{ color: '#ff4d4f' }} />
        ),
    },
    {
      title: t('users.actions'),
      key: 'actions',
      // Fixed on the right and narrow enough to wrap its labelled buttons into two lines: every
      // action stays in view at 1440 and 768 px wide (docs/accessibility.md).
      fixed: 'right',
      width: 250,
      render: (_, user) =>
        mayManage(user) && (
          // Visible labels: an icon alone does not say what it does.
          <Space size={4} wrap>
            <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(user)}>
              {t('common.edit')}
            </Button>
            <Button size="small" icon={<KeyOutlined />} onClick={() => setGranting(user)}>
              {t('users.rights')}
            </Button>
            <Button size="small" icon={<LogoutOutlined />} onClick={() => void signOutUser(user)}>
              {t('users.signOutEverywhere')}
            </Button>
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              disabled={rowState[user.Id]?.kind === 'deleting'}
              onClick={() => void remove(user)}
            >
              {t('common.delete')}
            </Button>
          </Space>
        ),
    },
  ];

  return (
    <>
      <Typography.Title level={1} className="page-title">
        {t('users.title')}
      </Typography.Title>
      <Card
        size="small"
        className="waiting-for-access"
        title={`${t('access.waitingList')}${waiting.data ? ` (${waiting.data.Total})` : ''}`}
        style={{ marginBottom: 16 }}
      >
        <Typography.Paragraph type="secondary">{t('access.waitingHelp')}</Typography.Paragraph>
        {waiting.isError && <LoadError error={waiting.error} onRetry={() => void waiting.refetch()} />}
        <Table<User>
          rowKey="Id"
          size="small"
          loading={waiting.isLoading}
          dataSource={waiting.data?.Data ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('access.noneWaiting') }}
          columns={[
            { title: t('users.username'), dataIndex: 'Username' },
            { title: t('users.name'), key: 'name', render: (_, u) => `${u.FirstName} ${u.LastName}` },
            { title: t('users.group'), dataIndex: 'GroupId', render: (g: User['GroupId']) => t(`groups.${g}`) },
            { title: t('access.registered'), dataIndex: 'Added', render: formatDateTime },
            {
              title: t('users.actions'),
              key: 'grant',
              render: (_, user) =>
                mayManage(user) && (
                  <Button size="small" type="primary" icon={<KeyOutlined />} onClick={() => setGranting(user)}>
                    {t('access.grant')}
                  </Button>
                ),
            },
          ]}
        />
      </Card>
      <Input.Search
        allowClear
        placeholder={t('users.searchPlaceholder')}
        aria-label={t('common.search')}
        onSearch={(value) => {
          setSearch(value.trim());
          setPage(1);
        }}
        style={{ maxWidth: 360, marginBottom: 16 }}
      />
      {users.isError && <LoadError error={users.error} onRetry={() => void users.refetch()} />}
      <Table<User>
        className="users-table"
        rowKey="Id"
        size="middle"
        columns={columns}
        {...tableProps(users)}
        scroll={{ x: 'max-content' }}
        rowClassName={(user) => (rowState[user.Id]?.kind === 'error' ? 'row-error' : '')}
      />
      {editing && <EditUserModal user={editing} onClose={() => setEditing(null)} />}
      {granting && <RightsModal user={granting} onClose={() => setGranting(null)} />}
    </>
  );
}
