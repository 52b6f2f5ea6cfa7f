import { SyncOutlined } from '@ant-design/icons';
import { Badge, Card, List, Space, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useApprovalsQuery } from '../api/queries';
import type { Approval, ApprovalStatus } from '../api/types';
import { ErrorAlert } from '../components/ErrorAlert';
import { useT } from '../i18n';
import { ApprovalCard } from './approvals/ApprovalCard';
import { DecisionModal, type Decision } from './approvals/DecisionModal';

/** How often the inbox asks for news (no manual reload needed). */
export const APPROVALS_POLL_MS = 4000;
const STATUSES: ApprovalStatus[] = ['pending', 'approved', 'denied', 'expired'];

/** The approvals inbox: pending calls with their prompt and redacted input; approve or deny. */
export default function ApprovalsPage() {
  const t = useT();
  const [status, setStatus] = useState<ApprovalStatus>('pending');
  // Polled while the tab is visible (TanStack pauses the interval in a background tab).
  const approvals = useApprovalsQuery(status, APPROVALS_POLL_MS);
  const [deciding, setDeciding] = useState<{ approval: Approval; decision: Decision } | null>(null);

  const pendingCount = status === 'pending' ? (approvals.data?.length ?? 0) : undefined;

  return (
    <Card
      title={t('approvals.title')}
      data-testid="approvals-page"
      extra={
        <Typography.Text type="secondary">
          <SyncOutlined spin={approvals.isLoading} />{' '}
          {t('approvals.autoRefresh', { seconds: APPROVALS_POLL_MS / 1000 })}
        </Typography.Text>
      }
    >
      <Tabs
        activeKey={status}
        onChange={(k) => setStatus(k as ApprovalStatus)}
        items={STATUSES.map((s) => ({
          key: s,
          label:
            s === 'pending' && pendingCount !== undefined ? (
              <Space size={6}>
                {t(`approvals.status.${s}`)}
                <Badge count={pendingCount} showZero={false} />
              </Space>
            ) : (
              t(`approvals.status.${s}`)
            ),
        }))}
      />
      <ErrorAlert error={approvals.error} onRetry={() => void approvals.refetch()} />
      <List<Approval>
        loading={approvals.isLoading}
        dataSource={approvals.data ? [...approvals.data] : []}
        rowKey="approvalId"
        locale={{ emptyText: status === 'pending' ? t('approvals.emptyPending') : t('common.empty') }}
        pagination={{
          pageSize: 10,
          hideOnSinglePage: true,
          showTotal: (total) => t('common.total', { total }),
        }}
        renderItem={(approval) => (
          <List.Item key={approval.approvalId} style={{ display: 'block' }}>
            <ApprovalCard approval={approval} onDecide={(decision) => setDeciding({ approval, decision })} />
          </List.Item>
        )}
      />
      <DecisionModal
        target={deciding}
        onClose={() => setDeciding(null)}
        onDecided={() => setDeciding(null)}
      />
    </Card>
  );
}
