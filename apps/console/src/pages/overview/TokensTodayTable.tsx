import { Card, Progress, Table, Typography } from 'antd';
import type { RunStats, TenantTokenDay } from '../../api/types';
import { formatTime } from '../../components/format';
import { useI18n, useT } from '../../i18n';

/** Each tenant's model tokens of the current UTC day against its daily limit (`tokensPerDay`). */
export function TokensTodayTable({ today }: { today: RunStats['today'] }) {
  const t = useT();
  const { language } = useI18n();
  return (
    <Card
      size="small"
      title={t('overview.tokensToday.title', { day: today.day })}
      extra={
        <Typography.Text type="secondary">
          {t('overview.tokensToday.renews', { time: formatTime(today.resetAt, language) })}
        </Typography.Text>
      }
      data-testid="overview-tokens-today"
    >
      <Table<TenantTokenDay>
        size="small"
        rowKey="tenantId"
        dataSource={today.tenants}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        locale={{ emptyText: t('overview.tokensToday.none') }}
        columns={[
          { title: t('common.tenant'), dataIndex: 'tenantId' },
          {
            title: t('overview.runs.tokens'),
            dataIndex: 'tokens',
            align: 'right',
            render: (v: number) => v.toLocaleString(),
          },
          {
            title: t('overview.tokensToday.limit'),
            dataIndex: 'tokensPerDay',
            align: 'right',
            render: (v: number | null) =>
              v === null ? t('overview.tokensToday.noLimit') : v.toLocaleString(),
          },
          {
            title: t('overview.tokensToday.used'),
            width: 200,
            render: (_, r) =>
              r.tokensPerDay === null ? (
                '—'
              ) : (
                <Progress
                  size="small"
                  percent={Math.min(100, Math.round((r.tokens / r.tokensPerDay) * 100))}
                  status={r.tokens >= r.tokensPerDay ? 'exception' : 'normal'}
                />
              ),
          },
        ]}
      />
    </Card>
  );
}
