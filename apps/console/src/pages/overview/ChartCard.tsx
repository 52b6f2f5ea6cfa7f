import { Card, Empty, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { PageSpinner } from '../../components/PageSpinner';
import { useT } from '../../i18n';
import type { Series } from './stats-series';

const TimeSeriesChart = lazy(() => import('./TimeSeriesChart'));

/** One chart of the overview, or "no calls" when the range has none. */
export function ChartCard(props: {
  title: string;
  series: readonly Series[];
  format: (v: number) => string;
  empty: boolean;
  note?: string;
  integer?: boolean;
}) {
  const t = useT();
  return (
    <Card
      size="small"
      title={props.title}
      extra={props.note && <Typography.Text type="secondary">{props.note}</Typography.Text>}
    >
      {props.empty ? (
        <Empty description={t('overview.noCalls')} style={{ height: 220, paddingTop: 60 }} />
      ) : (
        <Suspense fallback={<PageSpinner />}>
          <TimeSeriesChart series={props.series} format={props.format} integer={props.integer} />
        </Suspense>
      )}
    </Card>
  );
}
