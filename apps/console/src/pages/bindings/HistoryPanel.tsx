import { Table, Tag } from 'antd';
import { bindingHistory } from '../../api/admin';
import type { BindingHistoryEntry } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatTime } from '../../components/format';
import { useApi } from '../../components/useApi';
import { useI18n } from '../../i18n';
import { describeEntry } from './binding-rules';
import { DiffView } from './DiffView';

/** Saved versions of one agent type: who, when, how, and the diff against the version before. */
export function HistoryPanel({
  tenantId,
  agentType,
  refresh,
}: {
  tenantId: string;
  agentType: string;
  refresh: number;
}) {
  const { t, language } = useI18n();
  const history = useApi(
    (signal) => bindingHistory(tenantId, agentType, signal),
    [tenantId, agentType, refresh],
  );
  return (
    <>
      <ErrorAlert error={history.error} onRetry={() => history.reload()} />
      <Table<BindingHistoryEntry>
        rowKey={(h) => `${h.agentType}-${h.version}`}
        size="middle"
        loading={history.loading}
        dataSource={history.data ? [...history.data] : []}
        locale={{ emptyText: t('bindings.history.empty') }}
        pagination={{
          pageSize: 10,
          hideOnSinglePage: true,
          showTotal: (total) => t('common.total', { total }),
        }}
        data-testid="binding-history"
        expandable={{
          expandedRowRender: (h) => (
            <div>
              <strong>{t('bindings.history.tools')}：</strong>
              {h.tools.map((x) => (
                <Tag key={x.name}>
                  {x.name}
                  {describeEntry(x) !== '—' ? ` (${describeEntry(x)})` : ''}
                </Tag>
              ))}
            </div>
          ),
        }}
        columns={[
          {
            title: t('bindings.history.version'),
            dataIndex: 'version',
            width: 90,
            render: (v: number) => `v${v}`,
          },
          {
            title: t('bindings.history.kind'),
            dataIndex: 'kind',
            width: 100,
            render: (k: string) => (k === 'import' || k === 'update' ? t(`bindings.history.kind.${k}`) : k),
          },
          { title: t('bindings.history.by'), dataIndex: 'changedBy', width: 240, ellipsis: true },
          {
            title: t('bindings.history.at'),
            dataIndex: 'changedAt',
            width: 180,
            render: (v: string) => formatTime(v, language),
          },
          {
            title: t('bindings.history.diff'),
            render: (_, h) => (h.diff ? <DiffView diff={h.diff} /> : '—'),
          },
        ]}
      />
    </>
  );
}
