import { Col, Row, Statistic } from 'antd';
import type { Stats } from '../../api/types';
import { useT } from '../../i18n';
import { percent } from './number-format';

/** The four headline figures: calls, error rate, pending approvals, calls still open. */
export function SummaryStats(props: {
  calls: number;
  errors: number;
  stats: Stats | undefined;
  loading: boolean;
}) {
  const t = useT();
  const { calls, errors, stats, loading } = props;
  return (
    <Row gutter={16}>
      <Col xs={12} md={6}>
        <Statistic title={t('overview.totalCalls')} value={calls} loading={loading} />
      </Col>
      <Col xs={12} md={6}>
        <Statistic
          title={t('overview.errorRate')}
          value={calls ? percent(errors / calls) : '—'}
          loading={loading}
        />
      </Col>
      <Col xs={12} md={6}>
        <Statistic
          title={t('overview.pendingApprovals')}
          value={stats?.pendingApprovals ?? '—'}
          loading={loading}
        />
      </Col>
      <Col xs={12} md={6}>
        <Statistic
          title={t('overview.incompleteCalls')}
          value={stats?.incompleteCalls ?? '—'}
          loading={loading}
        />
      </Col>
    </Row>
  );
}
