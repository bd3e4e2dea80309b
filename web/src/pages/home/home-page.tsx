import { AppstoreOutlined, DashboardOutlined, EnvironmentOutlined, TeamOutlined } from '@ant-design/icons';
import { Card, Col, Row, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { canOpen, type Screen } from '../../access';
import { useSession } from '../../session';

/** The greeting with the first name and the logged-in message, and the ways on. */
export default function HomePage() {
  const { t } = useTranslation();
  const user = useSession();
  const all: { to: Screen; icon: ReactNode; title: string; text: string }[] = [
    { to: '/deviceData', icon: <DashboardOutlined />, title: t('nav.deviceData'), text: t('home.deviceData') },
    { to: '/myObjects', icon: <AppstoreOutlined />, title: t('nav.myObjects'), text: t('home.myObjects') },
    { to: '/locationData', icon: <EnvironmentOutlined />, title: t('nav.locationData'), text: t('home.locationData') },
    { to: '/users', icon: <TeamOutlined />, title: t('nav.users'), text: t('home.users') },
  ];
  const links = all.filter((link) => canOpen(user, link.to));
  return (
    <>
      <Typography.Title level={1} className="page-title">
        {t('home.hi', { name: user?.FirstName ?? '' })}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('home.loggedIn')}</Typography.Paragraph>
      <Row gutter={[16, 16]}>
        {links.map((link) => (
          <Col key={link.to} xs={24} sm={12} xl={6}>
            <Link to={link.to}>
              <Card hoverable style={{ height: '100%' }}>
                <Card.Meta
                  avatar={<span style={{ fontSize: 24, color: '#0958d9' }}>{link.icon}</span>}
                  title={link.title}
                  description={link.text}
                />
              </Card>
            </Link>
          </Col>
        ))}
      </Row>
    </>
  );
}
