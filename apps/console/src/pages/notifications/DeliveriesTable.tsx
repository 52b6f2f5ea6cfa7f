import { RedoOutlined } from '@ant-design/icons';
import { App, Button, Table, Tag, Timeline, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { useDeliveries, useRetryDelivery, type Delivery, type DeliveryStatus } from '../../api/notifications';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatTime } from '../../components/format';
import { useI18n } from '../../i18n';

const STATUS_COLORS: Record<DeliveryStatus, string> = {
  pending: 'processing',
  sending: 'processing',
  delivered: 'success',
  dead: 'error',
  skipped: 'default',
};

/** The delivery log (every attempt of every message), or only the dead letters with a retry button. */
export function DeliveriesTable({ tenantId, deadOnly }: { tenantId: string; deadOnly: boolean }) {
  const { t, language } = useI18n();
  const { message } = App.useApp();
  const deliveries = useDeliveries(tenantId, deadOnly ? 'dead' : undefined);
  const retry = useRetryDelivery(tenantId);
  return (
    <>
      <ErrorAlert error={deliveries.error} onRetry={() => void deliveries.refetch()} />
      <Table<Delivery>
        rowKey="id"
        size="middle"
        loading={deliveries.isLoading}
        dataSource={deliveries.data ? [...deliveries.data] : []}
        data-testid={deadOnly ? 'dead-letters' : 'delivery-log'}
        locale={{ emptyText: deadOnly ? t('notifications.noDeadLetters') : t('common.empty') }}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        expandable={{
          expandedRowRender: (d) => (
            <Timeline
              items={d.log.map((a) => ({
                color: a.status === 'ok' ? 'green' : 'red',
                children: (
                  <span>
                    #{a.seq} {formatTime(a.attemptedAt, language)} · {a.status}
                    {a.httpStatus !== null ? ` · HTTP ${a.httpStatus}` : ''} · {a.durationMs} ms
                    {a.error ? <Typography.Text type="danger"> · {a.error}</Typography.Text> : null}
                  </span>
                ),
              }))}
            />
          ),
        }}
        columns={[
          {
            title: t('notifications.created'),
            dataIndex: 'createdAt',
            render: (v: string) => formatTime(v, language),
          },
          {
            title: t('notifications.channel'),
            dataIndex: 'channel',
            render: (v: string, d) => (
              <span>
                {v} <Tag>{d.channelType}</Tag>
              </span>
            ),
          },
          {
            title: t('notifications.kind'),
            dataIndex: 'kind',
            render: (v: string) => t(`notifications.kind.${v}` as 'notifications.kind.request'),
          },
          {
            title: t('notifications.approval'),
            dataIndex: 'approvalId',
            render: (v: string) => (
              <Link to={`/approvals/${encodeURIComponent(v)}`}>
                <Typography.Text code>{v}</Typography.Text>
              </Link>
            ),
          },
          {
            title: t('notifications.status'),
            dataIndex: 'status',
            render: (v: DeliveryStatus) => (
              <Tag color={STATUS_COLORS[v]} data-testid="delivery-status">
                {t(`notifications.status.${v}` as 'notifications.status.dead')}
              </Tag>
            ),
          },
          { title: t('notifications.attempts'), dataIndex: 'attempts' },
          {
            title: t('notifications.lastError'),
            dataIndex: 'lastError',
            render: (v: string | null) => v ?? '—',
          },
          ...(deadOnly
            ? [
                {
                  title: '',
                  key: 'retry',
                  render: (_: unknown, d: Delivery) => (
                    <Button
                      icon={<RedoOutlined />}
                      loading={retry.isPending && retry.variables === d.id}
                      data-testid="retry-delivery"
                      onClick={() =>
                        retry.mutate(d.id, {
                          onSuccess: () => message.success(t('notifications.retried')),
                          onError: (e) => message.error(e.message),
                        })
                      }
                    >
                      {t('notifications.retry')}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
    </>
  );
}
