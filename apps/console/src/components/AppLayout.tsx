import {
  ApiOutlined,
  AuditOutlined,
  CheckSquareOutlined,
  CloudServerOutlined,
  DashboardOutlined,
  KeyOutlined,
  LogoutOutlined,
  NotificationOutlined,
  PartitionOutlined,
  RobotOutlined,
} from '@ant-design/icons';
import { Button, Layout, Menu, Segmented, Space, Tag, Typography } from 'antd';
import { Suspense, type ReactNode } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { pagesOf, type PageId } from '../auth/access';
import { useAuth, usePrincipal } from '../auth/AuthContext';
import { LANGUAGE_OPTIONS, useI18n, type Language } from '../i18n';
import { PageSpinner } from './PageSpinner';

const ICONS: Record<PageId, ReactNode> = {
  overview: <DashboardOutlined />,
  tools: <ApiOutlined />,
  bindings: <PartitionOutlined />,
  upstreams: <CloudServerOutlined />,
  approvals: <CheckSquareOutlined />,
  notifications: <NotificationOutlined />,
  audit: <AuditOutlined />,
  runs: <RobotOutlined />,
  keys: <KeyOutlined />,
};

/** The frame of every page: the menu of the role's pages, who is signed in, language, sign-out. */
export function AppLayout() {
  const { t, language, setLanguage } = useI18n();
  const { signOut } = useAuth();
  const me = usePrincipal();
  const navigate = useNavigate();
  const location = useLocation();
  const current = location.pathname.split('/')[1] ?? '';

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider width={208} theme="dark" breakpoint="lg" collapsedWidth={64}>
        <div style={{ height: 56, display: 'flex', alignItems: 'center', padding: '0 20px' }}>
          <Typography.Text strong style={{ color: '#fff', fontSize: 16, whiteSpace: 'nowrap' }}>
            Toolgate
          </Typography.Text>
        </div>
        <Menu
          theme="dark"
          mode="inline"
          selectedKeys={[current]}
          data-testid="nav"
          items={pagesOf(me).map((page) => ({ key: page, icon: ICONS[page], label: t(`nav.${page}`) }))}
          onClick={({ key }) => navigate(`/${key}`)}
        />
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            background: '#fff',
            padding: '0 24px',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            borderBottom: '1px solid #f0f0f0',
          }}
        >
          <Typography.Text type="secondary">{t('app.subtitle')}</Typography.Text>
          <Space size="middle">
            <Segmented<Language>
              size="small"
              value={language}
              onChange={setLanguage}
              options={LANGUAGE_OPTIONS}
              aria-label={t('header.language')}
            />
            <span data-testid="whoami">
              <Typography.Text>{me.name}</Typography.Text> <Tag color="geekblue">{t(`role.${me.role}`)}</Tag>
              {me.tenantId && <Tag>{me.tenantId}</Tag>}
            </span>
            <Button icon={<LogoutOutlined />} onClick={signOut} data-testid="sign-out">
              {t('header.signOut')}
            </Button>
          </Space>
        </Layout.Header>
        <Layout.Content style={{ margin: 24 }}>
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
