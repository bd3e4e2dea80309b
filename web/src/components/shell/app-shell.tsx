import {
  AlertOutlined,
  ApiOutlined,
  AppstoreOutlined,
  AuditOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DownOutlined,
  EnvironmentOutlined,
  FileDoneOutlined,
  HomeOutlined,
  KeyOutlined,
  LogoutOutlined,
  MenuOutlined,
  TeamOutlined,
  ToolOutlined,
  UserOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Avatar, Badge, Button, Drawer, Dropdown, Grid, Layout, Menu, type MenuProps, Typography } from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { canOpen, type Screen } from '../../access';
import { formatDateTime } from '../../format';
import { signOut, useSession } from '../../session';
import { AlertMessage } from '../alert';
import { LanguageSelector } from '../language-selector';
import { NoAccessNotice } from '../no-access-notice';
import { PageSuspense } from '../page-spinner';
import './app-shell.css';

const { Header, Sider, Content } = Layout;

/** The side menu: the user's name, the online marker, "main navigation" and the screens. */
function SideNav({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const user = useSession();
  const location = useLocation();
  const entries: Array<{ screen: Screen; icon: ReactNode; label: string }> = [
    { screen: '/', icon: <HomeOutlined aria-hidden />, label: t('nav.home') },
    { screen: '/deviceData', icon: <DashboardOutlined aria-hidden />, label: t('nav.deviceData') },
    { screen: '/myObjects', icon: <AppstoreOutlined aria-hidden />, label: t('nav.myObjects') },
    { screen: '/locationData', icon: <EnvironmentOutlined aria-hidden />, label: t('nav.locationData') },
    { screen: '/anomalies', icon: <AlertOutlined aria-hidden />, label: t('nav.anomalies') },
    { screen: '/statements', icon: <FileDoneOutlined aria-hidden />, label: t('nav.statements') },
    { screen: '/users', icon: <TeamOutlined aria-hidden />, label: t('nav.users') },
    { screen: '/masterData', icon: <DatabaseOutlined aria-hidden />, label: t('nav.masterData') },
    { screen: '/audit', icon: <AuditOutlined aria-hidden />, label: t('nav.audit') },
    { screen: '/collectors', icon: <ApiOutlined aria-hidden />, label: t('nav.collectors') },
    { screen: '/lorawan', icon: <WifiOutlined aria-hidden />, label: t('nav.lorawan') },
    { screen: '/integrations', icon: <KeyOutlined aria-hidden />, label: t('nav.integrations') },
    { screen: '/devices', icon: <ToolOutlined aria-hidden />, label: t('nav.devices') },
  ];
  const items: MenuProps['items'] = [
    {
      type: 'group',
      key: 'main',
      label: t('nav.main'),
      // Only the screens the access table lets this user open.
      children: entries
        .filter((entry) => canOpen(user, entry.screen))
        .map((entry) => ({
          key: entry.screen,
          icon: entry.icon,
          label: <Link to={entry.screen}>{entry.label}</Link>,
        })),
    },
  ];
  return (
    <nav aria-label={t('nav.main')}>
      <div className="side-user">
        <Avatar size={40} icon={<UserOutlined aria-hidden />} className="side-user-avatar" />
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
    { key: 'profile', icon: <UserOutlined aria-hidden />, label: t('nav.profile') },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined aria-hidden />, label: t('nav.logout') },
  ];
  const onAccountMenu: MenuProps['onClick'] = async ({ key }) => {
    if (key === 'profile') navigate('/profile');
    if (key === 'logout') {
      await signOut(queryClient);
      navigate('/login');
    }
  };

  // The first Tab stop of every screen: straight to the screen's content, past the menu and the top bar.
  const skipToContent = () => document.getElementById('content')?.focus();
  // When a screen opens and the focus went with the old one (signing in, a link that is gone), it
  // starts again at the top: the next Tab is the skip link, not wherever the browser lost it.
  const top = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of screen
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) top.current?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <Layout className="app-layout">
      <div ref={top} tabIndex={-1} className="focus-top" />
      <button type="button" className="skip-link" onClick={skipToContent}>
        {t('nav.skipToContent')}
      </button>
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
              icon={<MenuOutlined aria-hidden />}
              aria-label={t('nav.openMenu')}
              onClick={() => setDrawerOpen(true)}
            />
          )}
          <div className="app-header-spacer" />
          <LanguageSelector />
          <Dropdown menu={{ items: accountMenu, onClick: onAccountMenu }} trigger={['click']}>
            {/* Named by what it shows (a hidden "Account:" first), so that a spoken name matches the visible one. */}
            <Button type="text" className="app-account">
              <span className="visually-hidden">{`${t('nav.account')}: `}</span>
              <Avatar size="small" icon={<UserOutlined />} aria-hidden />
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
        <Content className="app-content" id="content" tabIndex={-1}>
          <AlertMessage />
          <NoAccessNotice />
          <PageSuspense>
            <Outlet />
          </PageSuspense>
        </Content>
      </Layout>
    </Layout>
  );
}
