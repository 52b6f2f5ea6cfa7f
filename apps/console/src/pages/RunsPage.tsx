import { Card, Table } from 'antd';
import { useNavigate } from 'react-router-dom';
import { useTenantsQuery } from '../api/queries';
import type { RunView } from '../api/types';
import { usePrincipal } from '../auth/AuthContext';
import { ErrorAlert } from '../components/ErrorAlert';
import { useI18n } from '../i18n';
import { runColumns } from './runs/runColumns';
import { RunFilters } from './runs/RunFilters';
import { CursorPager } from '../components/CursorPager';
import { RUN_PAGE_SIZES } from './runs/run-filter';
import { useRuns } from './runs/useRuns';

/**
 * The runs of agents, newest first, one page at a time (keyset cursor). A row opens the run's
 * transcript; the page polls while a run on it is still under way.
 */
export default function RunsPage() {
  const { t, language } = useI18n();
  const me = usePrincipal();
  const navigate = useNavigate();
  const runs = useRuns();
  const platformAdmin = me.role === 'platform_admin';
  const tenants = useTenantsQuery(platformAdmin);

  return (
    <Card title={t('runs.title')} data-testid="runs-page">
      <RunFilters
        value={runs.filter}
        tenants={platformAdmin ? (tenants.data ?? []).map((x) => x.id) : null}
        onSearch={runs.search}
      />
      <ErrorAlert error={runs.error} onRetry={runs.retry} />
      <Table<RunView>
        rowKey="runId"
        size="small"
        loading={runs.loading}
        dataSource={[...runs.items]}
        pagination={false}
        scroll={{ x: 1100 }}
        locale={{ emptyText: t('runs.empty') }}
        onRow={(run) => ({
          onClick: () => navigate(`/runs/${encodeURIComponent(run.runId)}`),
          style: { cursor: 'pointer' },
          'data-run-id': run.runId,
        })}
        data-testid="runs-table"
        columns={runColumns({ t, language, showTenant: platformAdmin })}
      />
      <CursorPager pages={runs} sizes={RUN_PAGE_SIZES} testIdPrefix="runs" />
    </Card>
  );
}
