import { Alert, Card, Typography } from 'antd';
import { Link } from 'react-router-dom';
import type { RunView } from '../../api/types';
import { canOpen } from '../../auth/access';
import { usePrincipal } from '../../auth/AuthContext';
import { useT } from '../../i18n';

/**
 * How the run ended, or where it stands: the answer, the failure envelope (message, suggested
 * action, code), a cancellation, or the approvals it is waiting for.
 */
export function RunOutcome({ run }: { run: RunView }) {
  const t = useT();
  const me = usePrincipal();
  const envelope = run.error;
  const envelopeLines = envelope && (
    <>
      <div>{t('common.suggestedAction', { action: envelope.suggestedAction })}</div>
      <div>{t('common.errorCode', { code: envelope.code })}</div>
    </>
  );

  switch (run.status) {
    case 'completed':
      return (
        <Card
          size="small"
          title={t('runs.answer')}
          data-testid="run-answer"
          style={{ background: '#f6ffed' }}
        >
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
            {run.output ?? '—'}
          </Typography.Paragraph>
        </Card>
      );
    case 'failed':
      return (
        <Alert
          type="error"
          showIcon
          data-testid="run-failure"
          data-code={envelope?.code}
          title={envelope ? t('runs.failedWith', { error: envelope.error }) : t('runs.failure')}
          description={envelopeLines}
        />
      );
    case 'cancelled':
      return (
        <Alert
          type="warning"
          showIcon
          data-testid="run-failure"
          data-code={envelope?.code}
          title={envelope?.error ?? t('runs.cancelledTitle')}
          description={envelopeLines}
        />
      );
    case 'awaiting_approval':
      return (
        <Alert
          type="info"
          showIcon
          data-testid="run-awaiting"
          title={t('runs.awaiting', { tools: run.pendingApprovals.map((p) => p.tool).join(', ') || '—' })}
          action={canOpen(me, 'approvals') && <Link to="/approvals">{t('runs.openApprovals')}</Link>}
        />
      );
    case 'running':
      return null;
  }
}
