import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Row, Segmented, Space, Statistic, Table, Typography } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { getStats } from '../api/admin';
import { ErrorAlert } from '../components/ErrorAlert';
import { PageSpinner } from '../components/PageSpinner';
import { useApi } from '../components/useApi';
import { useT } from '../i18n';
import { buildSeries, totalsByTool, type GroupBy, type ToolTotals } from './overview/stats-series';

const TimeSeriesChart = lazy(() => import('./overview/TimeSeriesChart'));

type RangeKey = '1h' | '24h' | '7d';
/** Each range and the bucket width that gives it a readable number of points. */
const RANGES: Record<RangeKey, { ms: number; bucketMinutes: number }> = {
  '1h': { ms: 3_600_000, bucketMinutes: 5 },
  '24h': { ms: 86_400_000, bucketMinutes: 60 },
  '7d': { ms: 7 * 86_400_000, bucketMinutes: 360 },
};

const percent = (v: number) => `${(v * 100).toFixed(v < 0.1 ? 1 : 0)}%`;
const rounded = (v: number) => String(Math.round(v));

/** Calls, error rate and p95 latency per tenant and tool over time; pending approvals; open calls. */
export default function OverviewPage() {
  const t = useT();
  const [rangeKey, setRangeKey] = useState<RangeKey>('24h');
  const [groupBy, setGroupBy] = useState<GroupBy>('tenant');
  const [now, setNow] = useState(() => Date.now());
  const range = RANGES[rangeKey];
  const span = useMemo(
    () => ({ from: now - range.ms, to: now, bucketMs: range.bucketMinutes * 60_000 }),
    [now, range],
  );
  const stats = useApi(
    (signal) =>
      getStats(
        {
          from: new Date(span.from).toISOString(),
          to: new Date(span.to).toISOString(),
          bucketMinutes: range.bucketMinutes,
        },
        signal,
      ),
    [span, range.bucketMinutes],
  );
  const buckets = useMemo(() => stats.data?.buckets ?? [], [stats.data]);
  const series = useMemo(() => buildSeries(buckets, groupBy, span), [buckets, groupBy, span]);
  const totals = useMemo(() => totalsByTool(buckets), [buckets]);
  const calls = totals.reduce((n, x) => n + x.calls, 0);
  const errors = totals.reduce((n, x) => n + x.errors, 0);

  const chart = (
    title: string,
    data: typeof series.calls,
    format: (v: number) => string,
    options: { note?: string; integer?: boolean } = {},
  ) => (
    <Card
      size="small"
      title={title}
      extra={options.note && <Typography.Text type="secondary">{options.note}</Typography.Text>}
    >
      {calls === 0 ? (
        <Empty description={t('overview.noCalls')} style={{ height: 220, paddingTop: 60 }} />
      ) : (
        <Suspense fallback={<PageSpinner />}>
          <TimeSeriesChart series={data} format={format} integer={options.integer} />
        </Suspense>
      )}
    </Card>
  );

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="overview-page">
      <Card
        title={t('overview.title')}
        extra={
          <Space wrap>
            <Segmented<RangeKey>
              value={rangeKey}
              onChange={(k) => {
                setRangeKey(k);
                setNow(Date.now());
              }}
              options={(['1h', '24h', '7d'] as const).map((k) => ({
                value: k,
                label: t(`overview.range.${k}`),
              }))}
            />
            <Segmented<GroupBy>
              value={groupBy}
              onChange={setGroupBy}
              options={[
                { value: 'tenant', label: t('overview.groupBy.tenant') },
                { value: 'tool', label: t('overview.groupBy.tool') },
              ]}
            />
            <Button icon={<ReloadOutlined />} onClick={() => setNow(Date.now())}>
              {t('common.refresh')}
            </Button>
          </Space>
        }
      >
        <ErrorAlert error={stats.error} onRetry={() => stats.reload()} />
        <Row gutter={16}>
          <Col xs={12} md={6}>
            <Statistic title={t('overview.totalCalls')} value={calls} loading={stats.loading} />
          </Col>
          <Col xs={12} md={6}>
            <Statistic
              title={t('overview.errorRate')}
              value={calls ? percent(errors / calls) : '—'}
              loading={stats.loading}
            />
          </Col>
          <Col xs={12} md={6}>
            <Statistic
              title={t('overview.pendingApprovals')}
              value={stats.data?.pendingApprovals ?? '—'}
              loading={stats.loading}
            />
          </Col>
          <Col xs={12} md={6}>
            <Statistic
              title={t('overview.incompleteCalls')}
              value={stats.data?.incompleteCalls ?? '—'}
              loading={stats.loading}
            />
          </Col>
        </Row>
      </Card>
      {stats.loading && !stats.data ? (
        <PageSpinner />
      ) : (
        <>
          <Row gutter={[16, 16]}>
            <Col xs={24} xl={12}>
              {chart(t('overview.calls'), series.calls, rounded, { integer: true })}
            </Col>
            <Col xs={24} xl={12}>
              {chart(t('overview.errorRate'), series.errorRate, percent)}
            </Col>
            <Col xs={24}>
              {chart(t('overview.p95'), series.p95, rounded, { note: t('overview.p95Note') })}
            </Col>
          </Row>
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
        </>
      )}
    </Space>
  );
}
