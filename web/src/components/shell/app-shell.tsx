import {
  ApiOutlined,
  AppstoreOutlined,
  AuditOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DownOutlined,
  EnvironmentOutlined,
  HomeOutlined,
  LogoutOutlined,
  MenuOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Avatar, Badge, Button, Drawer, Dropdown, Grid, Layout, Menu, type MenuProps, Spin, Typography } from 'antd';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { canManageMasterData, canSeeCollectors, canSeeUsers } from '../../access';
import { formatDateTime } from '../../format';
import { signOut, useSession } from '../../session';
import { AlertMessage } from '../alert';
import { LanguageSelector } from '../language-selector';
import './app-shell.css';

const { Header, Sider, Content } = Layout;

/** The side menu: the user's name, the online marker, "main navigation" and the screens. */
function SideNav({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const user = useSession();
  const location = useLocation();
  const items: MenuProps['items'] = [
    {
      type: 'group',
      key: 'main',
      label: t('nav.main'),
      children: [
        { key: '/', icon: <HomeOutlined />, label: <Link to="/">{t('nav.home')}</Link> },
        { key: '/deviceData', icon: <DashboardOutlined />, label: <Link to="/deviceData">{t('nav.deviceData')}</Link> },
        { key: '/myObjects', icon: <AppstoreOutlined />, label: <Link to="/myObjects">{t('nav.myObjects')}</Link> },
        {
          key: '/locationData',
          icon: <EnvironmentOutlined />,
          label: <Link to="/locationData">{t('nav.locationData')}</Link>,
        },
        ...(canSeeUsers(user)
          ? [{ key: '/users', icon: <TeamOutlined />, label: <Link to="/users">{t('nav.users')}</Link> }]
          : []),
        ...(canManageMasterData(user)
          ? [
              {
                key: '/masterData',
                icon: <DatabaseOutlined />,
                label: <Link to="/masterData">{t('nav.masterData')}</Link>,
              },
              { key: '/audit', icon: <AuditOutlined />, label: <Link to="/audit">{t('nav.audit')}</Link> },
            ]
          : []),
        ...(canSeeCollectors(user)
          ? [{ key: '/collectors', icon: <ApiOutlined />, label: <Link to="/collectors">{t('nav.collectors')}</Link> }]
          : []),
      ],
    },
  ];
  return (
    <nav aria-label={t('nav.main')}>
      <div className="side-user">
        <Avatar size={40} icon={<UserOutlined />} className="side-user-avatar" />
        <div className="side-user-text">
          <Typography.Text strong ellipsis className="side-user-name">
            {user ? `${user.FirstName} ${user.LastName}` : ''}
          </Typography.Text>
          <Badge status="success" text={<span className="side-user-online">{t('nav.online')}</span>} />
        </div>
      </div>
      <Menu
        mode="inline"
        theme="dark"
        selectedKeys={[location.pathname]}
        items={items}
        onClick={() => onNavigate?.()}
      />
    </nav>
  );
}

/** The top bar and side menu around every signed-in screen. */
export default function AppShell() {
  const { t } = useTranslation();
  const user = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const screens = Grid.useBreakpoint();
  const isWide = screens.lg ?? true;
  const [drawerOpen, setDrawerOpen] = useState(false);

  const accountMenu: MenuProps['items'] = [
    { key: 'profile', icon: <UserOutlined />, label: t('nav.profile') },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: t('nav.logout') },
  ];
  const onAccountMenu: MenuProps['onClick'] = async ({ key }) => {
    if (key === 'profile') navigate('/profile');
    if (key === 'logout') {
      await signOut(queryClient);
      navigate('/login');
    }
  };

  return (
    <Layout className="app-layout">
      {isWide && (
        <Sider width={232} className="app-sider">
          <Link to="/" className="app-brand">
            {t('app.name')}
          </Link>
          <SideNav />
        </Sider>
      )}
      {!isWide && (
        <Drawer
          placement="left"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          size={260}
          closable={false}
          className="app-drawer"
          title={
            <Link to="/" className="app-brand" onClick={() => setDrawerOpen(false)}>
              {t('app.name')}
            </Link>
          }
        >
          <SideNav onNavigate={() => setDrawerOpen(false)} />
        </Drawer>
      )}
      <Layout>
        <Header className="app-header">
          {!isWide && (
            <Button
              type="text"
              icon={<MenuOutlined />}
              aria-label={t('nav.openMenu')}
              onClick={() => setDrawerOpen(true)}
            />
          )}
          <div className="app-header-spacer" />
          <LanguageSelector />
          <Dropdown menu={{ items: accountMenu, onClick: onAccountMenu }} trigger={['click']}>
            <Button type="text" className="app-account" aria-label={t('nav.account')}>
              <Avatar size="small" icon={<UserOutlined />} />
              <span className="app-account-text">
                <span className="app-account-name">{user ? `${user.FirstName} ${user.LastName}` : ''}</span>
                {user?.SignedIn && (
                  <span className="app-account-signed-in">
                    {t('nav.lastSignIn', { date: formatDateTime(user.SignedIn) })}
                  </span>
                )}
              </span>
              <DownOutlined />
            </Button>
          </Dropdown>
        </Header>
        <Content className="app-content">
          <AlertMessage />
          <Suspense
            fallback={
              <div className="page-spinner">
                <Spin size="large" />
              </div>
            }
          >
            <Outlet />
          </Suspense>
        </Content>
      </Layout>
    </Layout>
  );
}
