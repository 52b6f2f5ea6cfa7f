import { Tag } from 'antd';
import type { CallStatus, RunStatus } from '../../api/types';
import { useT } from '../../i18n';

const RUN_COLORS: Record<RunStatus, string> = {
  running: 'processing',
  awaiting_approval: 'warning',
  completed: 'success',
  failed: 'error',
  cancelled: 'default',
};

const CALL_COLORS: Record<CallStatus, string> = {
  pending_approval: 'warning',
  running: 'processing',
  succeeded: 'success',
  failed: 'error',
  denied: 'volcano',
  expired: 'default',
  interrupted: 'red',
};

/** A run's status as a coloured tag. */
export function RunStatusTag({ status }: { status: RunStatus }) {
  const t = useT();
  return (
    <Tag color={RUN_COLORS[status]} data-testid="run-status" data-status={status}>
      {t(`runs.status.${status}`)}
    </Tag>
  );
}

/** A tool call's status as a coloured tag; a failed call also names its error code. */
export function CallStatusTag({ status, code }: { status: CallStatus; code?: string }) {
  const t = useT();
  return (
    <Tag color={CALL_COLORS[status]} data-testid="call-status" data-status={status}>
      {t(`runs.callStatus.${status}`)}
      {code ? ` · ${code}` : ''}
    </Tag>
  );
}
