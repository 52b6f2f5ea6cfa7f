import { Card, Empty, Select, Tabs } from 'antd';
import { useSearchParams } from 'react-router-dom';
import { useNotificationSettings } from '../api/notifications';
import { useTenantsQuery } from '../api/queries';
import { usePrincipal } from '../auth/AuthContext';
import { ErrorAlert } from '../components/ErrorAlert';
import { useI18n } from '../i18n';
import { ChannelsPanel } from './notifications/ChannelsPanel';
import { DeliveriesTable } from './notifications/DeliveriesTable';

const TABS = ['channels', 'deliveries', 'dead'] as const;
type Tab = (typeof TABS)[number];

/**
 * Where approvals are announced (issue 13 §2): the tenant's channels and routes (set in its file,
 * secrets shown as variable names), the delivery log with every attempt, and the dead letters with
 * a retry. Tenant and tab live in the address bar (`?tenant=acme&tab=dead`).
 */
export default function NotificationsPage() {
  const { t } = useI18n();
  const me = usePrincipal();
  // Platform-wide administrators pick the tenant; a tenant admin works on its own.
  const platform = me.tenantId === null;
  const [params, setParams] = useSearchParams();
  const tenants = useTenantsQuery(platform);
  const tenantId = platform ? (params.get('tenant') ?? tenants.data?.[0]?.id ?? null) : me.tenantId;
  const tab: Tab = TABS.find((x) => x === params.get('tab')) ?? 'channels';
  const settings = useNotificationSettings(tenantId);
  const set = (key: string, value: string) => {
    const p = new URLSearchParams(params);
    p.set(key, value);
    setParams(p, { replace: true });
  };

  return (
    <Card
      title={t('notifications.title')}
      data-testid="notifications-page"
      extra={
        platform && (
          <Select
            style={{ width: 220 }}
            value={tenantId ?? undefined}
            placeholder={t('bindings.pickTenant')}
            loading={tenants.isLoading}
            onChange={(v: string) => set('tenant', v)}
            options={(tenants.data ?? []).map((x) => ({ value: x.id, label: `${x.name} (${x.id})` }))}
            data-testid="pick-tenant"
          />
        )
      }
    >
      <ErrorAlert error={tenants.error} onRetry={() => void tenants.refetch()} />
      {!tenantId ? (
        <Empty description={t('upstreams.pickTenant')} />
      ) : (
        <Tabs
          activeKey={tab}
          onChange={(k) => set('tab', k)}
          items={[
            {
              key: 'channels',
              label: t('notifications.tab.channels'),
              children: (
                <>
                  <ErrorAlert error={settings.error} onRetry={() => void settings.refetch()} />
                  {settings.data && <ChannelsPanel settings={settings.data} />}
                </>
              ),
            },
            {
              key: 'deliveries',
              label: t('notifications.tab.deliveries'),
              children: <DeliveriesTable tenantId={tenantId} deadOnly={false} />,
            },
            {
              key: 'dead',
              label: t('notifications.tab.dead'),
              children: <DeliveriesTable tenantId={tenantId} deadOnly />,
            },
          ]}
        />
      )}
    </Card>
  );
}
