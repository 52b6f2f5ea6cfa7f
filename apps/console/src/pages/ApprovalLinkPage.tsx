import { Button, Card, Result } from 'antd';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useApproval } from '../api/notifications';
import { ErrorAlert } from '../components/ErrorAlert';
import { PageSpinner } from '../components/PageSpinner';
import { useT } from '../i18n';
import { ApprovalCard } from './approvals/ApprovalCard';
import { DecisionModal, type Decision } from './approvals/DecisionModal';

/** One approval at its own address: where a DingTalk, Feishu, WeCom or webhook message links to. */
export default function ApprovalLinkPage() {
  const t = useT();
  const { approvalId = '' } = useParams();
  const approval = useApproval(approvalId);
  const [deciding, setDeciding] = useState<Decision | null>(null);
  if (approval.isLoading) return <PageSpinner />;
  return (
    <Card
      title={t('approvals.title')}
      data-testid="approval-link-page"
      extra={<Link to="/approvals">{t('notifications.allApprovalsLink')}</Link>}
    >
      {approval.error ? (
        <>
          <ErrorAlert error={approval.error} onRetry={() => void approval.refetch()} />
          <Result
            status="404"
            extra={<Button href="/console/approvals">{t('notifications.allApprovalsLink')}</Button>}
          />
        </>
      ) : (
        approval.data && (
          <>
            <ApprovalCard approval={approval.data} onDecide={setDeciding} />
            <DecisionModal
              target={deciding ? { approval: approval.data, decision: deciding } : null}
              onClose={() => setDeciding(null)}
              onDecided={() => {
                setDeciding(null);
                void approval.refetch();
              }}
            />
          </>
        )
      )}
    </Card>
  );
}
