import { Collapse, Space, Typography } from 'antd';
import { Link } from 'react-router-dom';
import type { RunToolCall } from '../../api/types';
import { canOpen } from '../../auth/access';
import { usePrincipal } from '../../auth/AuthContext';
import { JsonView } from '../../components/JsonView';
import { useT } from '../../i18n';
import { CallStatusTag } from './RunTags';

/** The error code of a failure envelope, if the result is one. */
const codeOf = (result: RunToolCall['result']) => (result && 'code' in result ? result.code : undefined);

/**
 * One tool call of a step: the tool, how it went, its approval and its call id (links for viewers
 * who may open the inbox or the trail), and the input and result envelope folded away.
 */
export function ToolCallView({ call }: { call: RunToolCall }) {
  const t = useT();
  const me = usePrincipal();
  const approval = call.approvalId;
  return (
    <div
      data-testid="run-tool-call"
      data-tool={call.tool}
      data-status={call.status}
      style={{ border: '1px solid rgba(5,5,5,0.06)', borderRadius: 6, padding: '8px 12px' }}
    >
      <Space wrap size={8} style={{ marginBottom: 8 }}>
        <Typography.Text strong code>
          {call.tool}
        </Typography.Text>
        <CallStatusTag status={call.status} code={codeOf(call.result)} />
        {approval &&
          (canOpen(me, 'approvals') ? (
            <Link to="/approvals" data-testid="call-approval" data-approval-id={approval}>
              {t('runs.toolCall.approval', { approvalId: approval })}
            </Link>
          ) : (
            <Typography.Text type="secondary" copyable={{ text: approval }} data-testid="call-approval">
              {t('runs.toolCall.approval', { approvalId: approval })}
            </Typography.Text>
          ))}
        {call.subRunId && (
          <Link to={`/runs/${encodeURIComponent(call.subRunId)}`} data-testid="call-sub-run">
            {t('runs.toolCall.subRun', { runId: call.subRunId })}
          </Link>
        )}
        <Typography.Text type="secondary">
          {t('runs.toolCall.callId')}{' '}
          {canOpen(me, 'audit') ? (
            <Link to={`/audit?view=events&callId=${encodeURIComponent(call.callId)}`}>{call.callId}</Link>
          ) : (
            <Typography.Text copyable>{call.callId}</Typography.Text>
          )}
        </Typography.Text>
      </Space>
      <Collapse
        size="small"
        items={[
          {
            key: 'input',
            label: t('runs.toolCall.input'),
            children: <JsonView value={call.input} maxHeight={200} />,
          },
          {
            key: 'result',
            label: t('runs.toolCall.result'),
            children: call.result ? (
              <JsonView value={call.result} maxHeight={320} />
            ) : (
              <Typography.Text type="secondary">{t('runs.toolCall.noResult')}</Typography.Text>
            ),
          },
        ]}
      />
    </div>
  );
}
