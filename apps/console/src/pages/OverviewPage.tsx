import { Card, Col, Row, Space } from 'antd';
import { useState } from 'react';
import { ErrorAlert } from '../components/ErrorAlert';
import { PageSpinner } from '../components/PageSpinner';
import { useT } from '../i18n';
import { ChartCard } from './overview/ChartCard';
import { percent, rounded } from './overview/number-format';
import { OverviewToolbar } from './overview/OverviewToolbar';
import { RunStatsTable } from './overview/RunStatsTable';
import type { GroupBy } from './overview/stats-series';
import { SummaryStats } from './overview/SummaryStats';
import { TokensTodayTable } from './overview/TokensTodayTable';
import { ToolTotalsTable } from './overview/ToolTotalsTable';
import { useOverviewStats, type RangeKey } from './overview/useOverviewStats';

/**
 * Calls, error rate and p95 latency per tenant and tool over time; pending approvals; open calls;
 * agent runs per tenant and agent type, and each tenant's tokens of the UTC day.
 */
export default function OverviewPage() {
  const t = useT();
  const [rangeKey, setRangeKey] = useState<RangeKey>('24h');
  const [groupBy, setGroupBy] = useState<GroupBy>('tenant');
  const [now, setNow] = useState(() => Date.now());
  const { stats, series, totals, calls, errors } = useOverviewStats(rangeKey, groupBy, now);
  const empty = calls === 0;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="overview-page">
      <Card
        title={t('overview.title')}
        extra={
          <OverviewToolbar
            rangeKey={rangeKey}
            groupBy={groupBy}
            onRange={(k) => {
              setRangeKey(k);
              setNow(Date.now());
            }}
            onGroupBy={setGroupBy}
            onRefresh={() => setNow(Date.now())}
          />
        }
      >
        <ErrorAlert error={stats.error} onRetry={() => void stats.refetch()} />
        <SummaryStats calls={calls} errors={errors} stats={stats.data} loading={stats.isFetching} />
      </Card>
      {stats.isLoading ? (
        <PageSpinner />
      ) : (
        <>
          <Row gutter={[16, 16]}>
            <Col xs={24} xl={12}>
              <ChartCard
                title={t('overview.calls')}
                series={series.calls}
                format={rounded}
                empty={empty}
                integer
              />
            </Col>
            <Col xs={24} xl={12}>
              <ChartCard
                title={t('overview.errorRate')}
                series={series.errorRate}
                format={percent}
                empty={empty}
              />
            </Col>
            <Col xs={24}>
              <ChartCard
                title={t('overview.p95')}
                series={series.p95}
                format={rounded}
                empty={empty}
                note={t('overview.p95Note')}
              />
            </Col>
          </Row>
          <ToolTotalsTable totals={totals} />
          {stats.data && (
            <>
              <RunStatsTable rows={stats.data.runs.agentTypes} />
              <TokensTodayTable today={stats.data.runs.today} />
            </>
          )}
        </>
      )}
    </Space>
  );
}
