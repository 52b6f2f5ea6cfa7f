import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Select, Space, Tabs } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useBindingsQuery, useTenantsQuery, useToolsQuery } from '../api/queries';
import { usePrincipal } from '../auth/AuthContext';
import { ErrorAlert } from '../components/ErrorAlert';
import { PageSpinner } from '../components/PageSpinner';
import { useT } from '../i18n';
import { BindingEditor } from './bindings/BindingEditor';
import { approverGroupsOf } from './bindings/policy-form';
import { HistoryPanel } from './bindings/HistoryPanel';
import { NewTenantModal } from './bindings/NewTenantModal';
import { YamlPanel } from './bindings/YamlPanel';

type TabKey = 'editor' | 'history' | 'yaml';

/**
 * Bindings per tenant and agent type. The choice lives in the address bar
 * (`?tenant=acme&agent=ops_assistant&tab=history`) so a view can be linked.
 */
export default function BindingsPage() {
  const t = useT();
  const me = usePrincipal();
  const [params, setParams] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const tenants = useTenantsQuery();
  const catalog = useToolsQuery();
  const tenantId = params.get('tenant') ?? me.tenantId ?? tenants.data?.[0]?.id ?? null;
  const bindings = useBindingsQuery(tenantId);
  const agentType = params.get('agent') ?? bindings.data?.[0]?.agentType ?? null;
  const binding = bindings.data?.find((b) => b.agentType === agentType) ?? null;
  const tab = (params.get('tab') as TabKey | null) ?? 'editor';

  const choose = (next: { tenant?: string; agent?: string | null; tab?: TabKey }) => {
    const p = new URLSearchParams(params);
    if (next.tenant !== undefined) {
      p.set('tenant', next.tenant);
      p.delete('agent');
    }
    if (next.agent) p.set('agent', next.agent);
    if (next.tab) p.set('tab', next.tab);
    setParams(p, { replace: true });
  };

  // Keep the address bar complete once the defaults are known.
  useEffect(() => {
    if (tenantId && agentType && (!params.get('tenant') || !params.get('agent'))) {
      const p = new URLSearchParams(params);
      p.set('tenant', tenantId);
      p.set('agent', agentType);
      setParams(p, { replace: true });
    }
  }, [tenantId, agentType, params, setParams]);

  // Platform-wide administrators pick the tenant; a tenant admin works on its own.
  const platform = me.tenantId === null;

  return (
    <Card
      title={t('bindings.title')}
      data-testid="bindings-page"
      extra={
        <Space wrap>
          <Select
            style={{ width: 220 }}
            value={tenantId ?? undefined}
            placeholder={t('bindings.pickTenant')}
            loading={tenants.isLoading}
            disabled={!platform}
            onChange={(v: string) => choose({ tenant: v })}
            options={(tenants.data ?? []).map((x) => ({ value: x.id, label: `${x.name} (${x.id})` }))}
            data-testid="pick-tenant"
          />
          <Select
            style={{ width: 220 }}
            value={agentType ?? undefined}
            placeholder={t('bindings.pickAgentType')}
            loading={bindings.isLoading}
            onChange={(v: string) => choose({ agent: v })}
            options={(bindings.data ?? []).map((b) => ({ value: b.agentType, label: b.agentType }))}
            data-testid="pick-agent"
          />
          {platform && (
            <Button icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              {t('bindings.newTenant')}
            </Button>
          )}
        </Space>
      }
    >
      <ErrorAlert error={tenants.error} onRetry={() => void tenants.refetch()} />
      <ErrorAlert error={catalog.error} onRetry={() => void catalog.refetch()} />
      <ErrorAlert error={bindings.error} onRetry={() => void bindings.refetch()} />
      {!tenantId ? (
        <Empty description={t('bindings.pickFirst')} />
      ) : (
        <Tabs
          activeKey={tab}
          onChange={(k) => choose({ tab: k as TabKey })}
          items={[
            {
              key: 'editor',
              label: t('bindings.tab.editor'),
              children:
                bindings.isLoading || catalog.isLoading ? (
                  <PageSpinner />
                ) : binding && catalog.data ? (
                  <BindingEditor
                    key={`${tenantId}/${binding.agentType}`}
                    tenantId={tenantId}
                    binding={binding}
                    catalog={catalog.data}
                    agentTypes={(bindings.data ?? []).map((b) => b.agentType)}
                    approverGroups={approverGroupsOf(tenants.data?.find((x) => x.id === tenantId)?.settings)}
                  />
                ) : (
                  <Empty
                    description={bindings.data?.length ? t('bindings.pickFirst') : t('bindings.noAgentTypes')}
                  />
                ),
            },
            {
              key: 'history',
              label: t('bindings.tab.history'),
              children: agentType ? (
                <HistoryPanel tenantId={tenantId} agentType={agentType} />
              ) : (
                <Empty description={t('bindings.pickFirst')} />
              ),
            },
            {
              key: 'yaml',
              label: t('bindings.tab.yaml'),
              children: <YamlPanel tenantId={tenantId} />,
            },
          ]}
        />
      )}
      <NewTenantModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(tenant) => {
          setCreating(false);
          choose({ tenant: tenant.id });
        }}
      />
    </Card>
  );
}
