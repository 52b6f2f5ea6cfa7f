import { Card, Table, Typography } from 'antd';
import { useT } from '../../i18n';
import { percent } from './number-format';
import type { ToolTotals } from './stats-series';

/** Calls, errors and p95 per tenant and tool over the range. */
export function ToolTotalsTable({ totals }: { totals: ToolTotals[] }) {
  const t = useT();
  return (
    <Card size="small" title={t('overview.byTool')}>
      <Table<ToolTotals>
        size="small"
        rowKey={(r) => `${r.tenantId}/${r.tool}`}
        dataSource={totals}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        columns={[
          { title: t('common.tenant'), dataIndex: 'tenantId' },
          {
            title: t('common.tool'),
            dataIndex: 'tool',
            render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
          },
          { title: t('overview.calls'), dataIndex: 'calls', align: 'right' },
          { title: t('overview.totalErrors'), dataIndex: 'errors', align: 'right' },
          {
            title: t('overview.errorRate'),
            align: 'right',
            render: (_, r) => (r.calls ? percent(r.errors / r.calls) : '—'),
          },
          {
            title: t('overview.p95'),
            dataIndex: 'p95Ms',
            align: 'right',
            render: (v: number | null) => (v === null ? '—' : Math.round(v)),
          },
        ]}
      />
    </Card>
  );
}
