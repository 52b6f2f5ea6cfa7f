import { ReloadOutlined } from '@ant-design/icons';
import { App, Button, Card, Popconfirm, Space, Typography } from 'antd';
import { useState } from 'react';
import { useDeleteUpstream, useRefreshUpstream } from '../../api/mutations';
import { useBindingsQuery, useUpstreamQuery, useUpstreamToolsQuery } from '../../api/queries';
import type { RefreshUpstreamResult, UpstreamImportResult } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useT, type Translate } from '../../i18n';
import { ImportedToolsTable } from './ImportedToolsTable';
import { ImportToolsModal } from './ImportToolsModal';
import { LiveToolsTable } from './LiveToolsTable';
import { ReviewModal } from './ReviewModal';

/** A refresh's outcome in one line: what changed, or that nothing did. */
function refreshSummary(t: Translate, r: RefreshUpstreamResult): string {
  const parts = [
    r.quarantined.length ? t('upstreams.refresh.quarantined', { tools: r.quarantined.join(', ') }) : null,
    r.removed.length ? t('upstreams.refresh.removed', { tools: r.removed.join(', ') }) : null,
    r.restored.length ? t('upstreams.refresh.restored', { tools: r.restored.join(', ') }) : null,
  ].filter((p): p is string => p !== null);
  return parts.length ? parts.join('；') : t('upstreams.refresh.unchanged', { count: r.unchanged.length });
}

/** One server: its imported tools (status, review), its live tools (import), refresh and delete. */
export function ServerPanel(props: { tenantId: string; server: string; onDeleted: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const { tenantId, server } = props;
  const detail = useUpstreamQuery(tenantId, server);
  const live = useUpstreamToolsQuery(tenantId, server);
  const bindings = useBindingsQuery(tenantId);
  const refresh = useRefreshUpstream(tenantId, server);
  const remove = useDeleteUpstream(tenantId);
  const [selected, setSelected] = useState<string[]>([]);
  const [importing, setImporting] = useState(false);
  const [reviewing, setReviewing] = useState<string | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);

  const chosen = importing ? (live.data ?? []).filter((tool) => selected.includes(tool.definition.name)) : [];

  const doRefresh = async () => {
    setActionError(null);
    try {
      message.info(refreshSummary(t, await refresh.mutateAsync()));
    } catch (err) {
      setActionError(err);
    }
  };

  const doDelete = async () => {
    setActionError(null);
    try {
      await remove.mutateAsync(server);
      message.success(t('upstreams.deleted', { name: server }));
      props.onDeleted();
    } catch (err) {
      setActionError(err);
    }
  };

  const imported = (result: UpstreamImportResult) => {
    setImporting(false);
    setSelected([]);
    message.success(
      t('upstreams.import.done', {
        count: result.imported.length,
        agents: result.boundTo.map((b) => `${b.agentType} v${b.version}`).join(', ') || '—',
      }),
    );
  };

  return (
    <Card
      type="inner"
      title={
        <Space>
          {t('upstreams.server')}
          <Typography.Text code>{server}</Typography.Text>
        </Space>
      }
      data-testid="server-panel"
      data-server={server}
      extra={
        <Space>
          <Button
            icon={<ReloadOutlined />}
            loading={refresh.isPending}
            onClick={doRefresh}
            data-testid="refresh-upstream"
          >
            {t('upstreams.refresh')}
          </Button>
          <Popconfirm
            title={t('upstreams.deleteConfirm', { name: server })}
            onConfirm={doDelete}
            okButtonProps={{ danger: true }}
          >
            <Button danger loading={remove.isPending} data-testid="delete-upstream">
              {t('upstreams.delete')}
            </Button>
          </Popconfirm>
        </Space>
      }
    >
      <ErrorAlert error={actionError} />
      <ErrorAlert error={detail.error} onRetry={() => void detail.refetch()} />
      <Typography.Title level={5}>{t('upstreams.importedTools')}</Typography.Title>
      <ImportedToolsTable
        tools={detail.data?.imported ?? []}
        loading={detail.isLoading}
        onReview={setReviewing}
      />

      <Space style={{ width: '100%', justifyContent: 'space-between', margin: '24px 0 8px' }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('upstreams.liveTools')}
        </Typography.Title>
        <Button
          type="primary"
          disabled={selected.length === 0}
          onClick={() => setImporting(true)}
          data-testid="import-selected"
        >
          {t('upstreams.importSelected', { count: selected.length })}
        </Button>
      </Space>
      <ErrorAlert error={live.error} onRetry={() => void live.refetch()} />
      <LiveToolsTable
        tools={live.data ?? []}
        loading={live.isLoading}
        selected={selected}
        onSelect={setSelected}
      />

      {/* Mounted per opening: the form starts from the tools chosen this time. */}
      {chosen.length > 0 && (
        <ImportToolsModal
          tenantId={tenantId}
          server={server}
          tools={chosen}
          agentTypes={(bindings.data ?? []).map((b) => b.agentType)}
          onClose={() => setImporting(false)}
          onImported={imported}
        />
      )}
      <ReviewModal tenantId={tenantId} server={server} tool={reviewing} onClose={() => setReviewing(null)} />
    </Card>
  );
}
