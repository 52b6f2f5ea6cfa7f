import { Tag } from 'antd';
import { useT } from '../../i18n';
import { isAuditEventType as isKnownEvent } from '@toolgate/contract/rules';

const COLORS: Record<string, string> = {
  started: 'blue',
  finished: 'green',
  accessed: 'cyan',
  late_completion: 'gold',
  not_executed: 'volcano',
  interrupted: 'red',
  approval_requested: 'orange',
  approval_decided: 'cyan',
  key_created: 'purple',
  key_revoked: 'purple',
  binding_changed: 'geekblue',
  tenant_created: 'geekblue',
  tenant_changed: 'geekblue',
  run_started: 'lime',
  run_finished: 'lime',
  upstream_changed: 'magenta',
  signed_in: 'default',
  sign_in_failed: 'red',
  signed_out: 'default',
  access_denied: 'red',
  retention_changed: 'geekblue',
  audit_purged: 'purple',
  session_expired: 'default',
  key_owner_changed: 'blue',
  role_mapping_changed: 'magenta',
  trail_exported: 'gold',
  evidence_downloaded: 'gold',
  processing_records_exported: 'gold',
  chain_verified: 'cyan',
  notification_retried: 'default',
  admin_request: 'default',
};

/** An event type as a coloured tag; a failed `finished` shows red. */
export function EventTag({ event, status }: { event: string; status?: string | null }) {
  const t = useT();
  const color = event === 'finished' && status === 'error' ? 'red' : (COLORS[event] ?? 'default');
  return (
    <Tag color={color} data-event={event}>
      {isKnownEvent(event) ? t(`event.${event}`) : event}
    </Tag>
  );
}

/** A call's outcome (`ok` / `error` · code) as a tag; without a status, the code alone or —. */
export function StatusTag({ status, code }: { status?: 'ok' | 'error' | null; code?: string | null }) {
  const t = useT();
  if (!status) return <>{code || '—'}</>;
  return (
    <Tag color={status === 'ok' ? 'success' : 'error'}>
      {t(`audit.status.${status}`)}
      {code ? ` · ${code}` : ''}
    </Tag>
  );
}
