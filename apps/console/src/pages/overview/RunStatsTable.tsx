import { Card, Table, Typography } from 'antd';
import type { RunStatsRow } from '../../api/types';
import { useT } from '../../i18n';

/** Agent runs started in the range, per tenant and agent type: how they stand and the tokens they spent. */
export function RunStatsTable({ rows }: { rows: RunStatsRow[] }) {
  const t = useT();
  const count = (n: number) => (n ? n : <Typography.Text type="secondary">0</Typography.Text>);
  return (
    <Card size="small" title={t('overview.runs.byAgentType')} data-testid="overview-runs">
      <Table<RunStatsRow>
        size="small"
        rowKey={(r) => `${r.tenantId}/${r.agentType}`}
        dataSource={rows}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        locale={{ emptyText: t('overview.runs.none') }}
        columns={[
          { title: t('common.tenant'), dataIndex: 'tenantId' },
          {
            title: t('overview.runs.agentType'),
            dataIndex: 'agentType',
            render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
          },
          { title: t('overview.runs.runs'), dataIndex: 'runs', align: 'right' },
          {
            title: t('runs.status.completed'),
            align: 'right',
            render: (_, r) => count(r.byStatus.completed),
          },
          { title: t('runs.status.failed'), align: 'right', render: (_, r) => count(r.byStatus.failed) },
          {
            title: t('runs.status.cancelled'),
            align: 'right',
            render: (_, r) => count(r.byStatus.cancelled),
          },
          {
            title: t('overview.runs.active'),
            align: 'right',
            render: (_, r) => count(r.byStatus.running + r.byStatus.awaiting_approval),
          },
          {
            title: t('overview.runs.tokens'),
            align: 'right',
            render: (_, r) => r.usage.totalTokens.toLocaleString(),
          },
        ]}
      />
    </Card>
  );
}
