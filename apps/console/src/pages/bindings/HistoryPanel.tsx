import { Table, Tag } from 'antd';
import { useBindingHistoryQuery } from '../../api/queries';
import type { BindingHistoryEntry } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatTime } from '../../components/format';
import { useI18n } from '../../i18n';
import { describeEntry } from './binding-rules';
import { DiffView } from './DiffView';

/** Saved versions of one agent type: who, when, how, and the diff against the version before. */
export function HistoryPanel({ tenantId, agentType }: { tenantId: string; agentType: string }) {
  const { t, language } = useI18n();
  const history = useBindingHistoryQuery(tenantId, agentType);
  return (
    <>
      <ErrorAlert error={history.error} onRetry={() => void history.refetch()} />
      <Table<BindingHistoryEntry>
        rowKey={(h) => `${h.agentType}-${h.version}`}
        size="middle"
        loading={history.isLoading}
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
