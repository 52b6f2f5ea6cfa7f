import { Descriptions, List, Space, Tag, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { useApprovalContextQuery } from '../../api/queries';
import type { AuditCall } from '../../api/types';
import { formatTime } from '../../components/format';
import { useI18n } from '../../i18n';

const STATE_COLORS: Partial<Record<AuditCall['state'], string>> = {
  succeeded: 'success',
  failed: 'error',
  denied: 'error',
  expired: 'default',
  interrupted: 'warning',
  running: 'processing',
};

/** A call's state, and its error code when it failed. */
function Outcome({ call }: { call: AuditCall }) {
  const { t } = useI18n();
  return (
    <Tag color={STATE_COLORS[call.state] ?? 'default'} data-testid="approval-outcome" data-state={call.state}>
      {t(`call.${call.state}`)}
      {call.code ? ` · ${call.code}` : ''}
    </Tag>
  );
}

/**
 * What an approver decides with (`GET /v1/approvals/:id/context`): the requester by name, the run
 * that asked, the call's outcome once decided, and earlier decisions on the same tool and target.
 */
export function ApprovalContextView({
  approvalId,
  requestedBy,
}: {
  approvalId: string;
  requestedBy: string;
}) {
  const { t, language } = useI18n();
  const context = useApprovalContextQuery(approvalId);
  const c = context.data;
  const requester = c?.requester.name ?? requestedBy;
  return (
    <div data-testid="approval-context">
      <Descriptions
        size="small"
        column={{ xs: 1, md: 2, xl: 4 }}
        items={[
          {
            key: 'by',
            label: t('approvals.requestedBy'),
            children: (
              <span data-testid="approval-requester" title={c?.requester.id ?? requestedBy}>
                {requester}
              </span>
            ),
          },
          ...(c?.target ? [{ key: 'target', label: t('audit.calls.target'), children: c.target }] : []),
          ...(c?.runId
            ? [
                {
                  key: 'run',
                  label: t('approvals.run'),
                  children: <Link to={`/runs/${c.runId}`}>{c.runId}</Link>,
                },
              ]
            : []),
          ...(c?.call && c.call.state !== 'pending_approval'
            ? [{ key: 'outcome', label: t('approvals.outcome'), children: <Outcome call={c.call} /> }]
            : []),
        ]}
      />
      {c && c.earlier.length > 0 && (
        <List
          size="small"
          header={<Typography.Text type="secondary">{t('approvals.earlier')}</Typography.Text>}
          dataSource={c.earlier}
          data-testid="approval-earlier"
          renderItem={(e) => (
            <List.Item key={e.callId}>
              <Space wrap size={6}>
                <span>{formatTime(e.requestedAt, language)}</span>
                {e.approvers.map((a) => (
                  <Tag key={a.id} color={a.decision === 'approve' ? 'green' : 'red'}>
                    {a.name ?? a.id} ·{' '}
                    {a.decision === 'approve' ? t('approvals.approve') : t('approvals.deny')}
                  </Tag>
                ))}
                <Outcome call={e} />
              </Space>
            </List.Item>
          )}
        />
      )}
    </div>
  );
}
