import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Empty, Select, Space, Table } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTenantsQuery, useUpstreamsQuery } from '../api/queries';
import type { Upstream } from '../api/types';
import { usePrincipal } from '../auth/AuthContext';
import { ErrorAlert } from '../components/ErrorAlert';
import { useI18n } from '../i18n';
import { RegisterUpstreamModal } from './upstreams/RegisterUpstreamModal';
import { ServerPanel } from './upstreams/ServerPanel';
import { upstreamColumns } from './upstreams/upstreamColumns';

/**
 * Outside tool sources of a tenant (MCP servers, OpenAPI services): register, import their tools
 * with a risk level, refresh, and review the tools a server changed after they were pinned. The
 * choice lives in the address bar (`?tenant=acme&server=crm`) so a review can be linked.
 */
export default function UpstreamsPage() {
  const { t, language } = useI18n();
  const { message } = App.useApp();
  const me = usePrincipal();
  // Platform-wide administrators pick the tenant; a tenant admin works on its own.
  const platform = me.tenantId === null;
  const [params, setParams] = useSearchParams();
  const [registering, setRegistering] = useState(false);
  const tenants = useTenantsQuery(platform);
  // A tenant admin sees its own tenant whatever the address says (the API would refuse others).
  const tenantId = platform ? (params.get('tenant') ?? tenants.data?.[0]?.id ?? null) : me.tenantId;
  const upstreams = useUpstreamsQuery(tenantId);
  const server = params.get('server');
  const open = server && upstreams.data?.some((u) => u.name === server) ? server : null;

  const choose = (next: { tenant?: string; server?: string | null }) => {
    const p = new URLSearchParams(params);
    if (next.tenant !== undefined) {
      p.set('tenant', next.tenant);
      p.delete('server');
    }
    if (next.server !== undefined) {
      if (next.server) p.set('server', next.server);
      else p.delete('server');
    }
    setParams(p, { replace: true });
  };

  // A platform admin's default tenant goes into the address bar, so the view can be linked as seen.
  useEffect(() => {
    if (platform && tenantId && !params.get('tenant')) {
      const p = new URLSearchParams(params);
      p.set('tenant', tenantId);
      setParams(p, { replace: true });
    }
  }, [platform, tenantId, params, setParams]);

  return (
    <Card
      title={t('upstreams.title')}
      data-testid="upstreams-page"
      extra={
        <Space wrap>
          {platform && (
            <Select
              style={{ width: 220 }}
              value={tenantId ?? undefined}
              placeholder={t('bindings.pickTenant')}
              loading={tenants.isLoading}
              onChange={(v: string) => choose({ tenant: v })}
              options={(tenants.data ?? []).map((x) => ({ value: x.id, label: `${x.name} (${x.id})` }))}
              data-testid="pick-tenant"
            />
          )}
          <Button
            type="primary"
            icon={<PlusOutlined />}
            disabled={!tenantId}
            onClick={() => setRegistering(true)}
            data-testid="register-upstream"
          >
            {t('upstreams.register')}
          </Button>
        </Space>
      }
    >
      <ErrorAlert error={tenants.error} onRetry={() => void tenants.refetch()} />
      <ErrorAlert error={upstreams.error} onRetry={() => void upstreams.refetch()} />
      {!tenantId ? (
        <Empty description={t('upstreams.pickTenant')} />
      ) : (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <Table<Upstream>
            rowKey="name"
            size="middle"
            loading={upstreams.isLoading}
            dataSource={upstreams.data ? [...upstreams.data] : []}
            pagination={false}
            data-testid="upstreams-table"
            locale={{ emptyText: t('upstreams.empty') }}
            rowClassName={(u) => (u.name === open ? 'ant-table-row-selected' : '')}
            columns={upstreamColumns({ t, language, onOpen: (name) => choose({ server: name }) })}
          />
          {open && (
            <ServerPanel
              key={`${tenantId}/${open}`}
              tenantId={tenantId}
              server={open}
              onDeleted={() => choose({ server: null })}
            />
          )}
        </Space>
      )}
      {tenantId && (
        <RegisterUpstreamModal
          tenantId={tenantId}
          open={registering}
          onClose={() => setRegistering(false)}
          onRegistered={(r) => {
            setRegistering(false);
            message.success(t('upstreams.registered', { name: r.upstream.name, count: r.tools.length }));
            choose({ server: r.upstream.name });
          }}
        />
      )}
    </Card>
  );
}
