import { useQuery } from '@tanstack/react-query';
import { Table, Tag, Tooltip, Typography } from 'antd';
import { useApiClient } from '../../api/ApiClientContext';
import { listAuditSinks } from '../../api/audit';
import type { AuditSink } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useT } from '../../i18n';

/** How often the panel asks again: the lag moves every forwarder pass. */
const REFRESH_MS = 5_000;

/**
 * The SIEM sinks the trail streams to (ADR 038): lag, failures and dead letters of each. Only the
 * platform's auditors and admins see it: sinks carry every tenant's events.
 */
export function SinksView() {
  const t = useT();
  const api = useApiClient();
  const sinks = useQuery({
    queryKey: ['/v1/audit/sinks'],
    queryFn: ({ signal }) => listAuditSinks(api, signal),
    refetchInterval: REFRESH_MS,
  });
  if (sinks.error) return <ErrorAlert error={sinks.error} />;
  return (
    <Table<AuditSink>
      data-testid="audit-sinks"
      size="small"
      rowKey="name"
      loading={sinks.isLoading}
      pagination={false}
      locale={{ emptyText: t('audit.sinks.none') }}
      dataSource={sinks.data ? [...sinks.data.sinks] : []}
      columns={[
        { title: t('audit.sinks.name'), dataIndex: 'name' },
        {
          title: t('audit.sinks.target'),
          render: (_, s) => (
            <>
              <Typography.Text code>{s.target}</Typography.Text> <Tag>{s.format}</Tag>
            </>
          ),
        },
        {
          title: t('audit.sinks.lag'),
          dataIndex: 'lag',
          render: (lag: number) => <Tag color={lag === 0 ? 'green' : 'orange'}>{lag}</Tag>,
        },
        {
          title: t('audit.sinks.deadLetters'),
          dataIndex: 'deadLetters',
          render: (n: number) => <Tag color={n === 0 ? undefined : 'red'}>{n}</Tag>,
        },
        { title: t('audit.sinks.holder'), render: (_, s) => s.leaseHolder ?? '—' },
        {
          title: t('audit.sinks.lastError'),
          render: (_, s) =>
            s.here.lastError ? (
              <Tooltip title={s.here.lastErrorAt}>
                <Typography.Text type="danger">{s.here.lastError}</Typography.Text>
              </Tooltip>
            ) : (
              '—'
            ),
        },
      ]}
    />
  );
}
