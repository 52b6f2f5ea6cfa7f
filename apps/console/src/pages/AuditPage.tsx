import { Card, Space, Table } from 'antd';
import { useCallback, useState } from 'react';
import { useApiClient } from '../api/ApiClientContext';
import { getAuditEvent } from '../api/audit';
import { useTenantsQuery } from '../api/queries';
import type { AuditEvent, Verification } from '../api/types';
import { usePrincipal } from '../auth/AuthContext';
import { ErrorAlert } from '../components/ErrorAlert';
import { useI18n } from '../i18n';
import { auditColumns } from './audit/auditColumns';
import { AuditFilters } from './audit/AuditFilters';
import { CursorPager } from '../components/CursorPager';
import { PAGE_SIZES } from './audit/audit-events';
import { CallTimeline } from './audit/CallTimeline';
import { EventDrawer } from './audit/EventDrawer';
import { ExportButton } from './audit/ExportButton';
import { useAuditEvents } from './audit/useAuditEvents';
import { useKeyNames } from './audit/useKeyNames';
import { VerifyButton } from './audit/VerifyButton';
import { VerifyResult } from './audit/VerifyResult';

/**
 * The audit browser. One page of events at a time (50–200 rows, keyset cursor), so the screen stays
 * fast however many rows the trail holds; earlier pages are reached again through their cursors.
 */
export default function AuditPage() {
  const { t, language } = useI18n();
  const me = usePrincipal();
  const api = useApiClient();
  const events = useAuditEvents();
  const tenants = useTenantsQuery(me.role === 'platform_admin');
  const names = useKeyNames();
  const [event, setEvent] = useState<AuditEvent | null>(null);
  const [callId, setCallId] = useState<string | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [verdict, setVerdict] = useState<Verification | null>(null);

  const clearError = () => setActionError(null);
  /** A new verification replaces the verdict on screen (an export leaves it). */
  const startVerify = () => {
    setActionError(null);
    setVerdict(null);
  };

  const openEventById = useCallback(
    async (id: string) => {
      setActionError(null);
      try {
        setEvent(await getAuditEvent(api, id));
      } catch (err) {
        setActionError(err);
      }
    },
    [api],
  );

  return (
    <Card
      title={t('audit.title')}
      data-testid="audit-page"
      extra={
        <Space wrap>
          <ExportButton format="csv" filter={events.filter} onStart={clearError} onError={setActionError} />
          <ExportButton format="jsonl" filter={events.filter} onStart={clearError} onError={setActionError} />
          <VerifyButton
            filter={events.filter}
            onStart={startVerify}
            onVerdict={setVerdict}
            onError={setActionError}
          />
        </Space>
      }
    >
      <AuditFilters
        value={events.filter}
        tenants={(tenants.data ?? []).map((x) => x.id)}
        onSearch={events.search}
      />
      <ErrorAlert error={actionError} />
      {verdict && (
        <VerifyResult result={verdict} onOpenEvent={openEventById} onClose={() => setVerdict(null)} />
      )}
      <ErrorAlert error={events.error} onRetry={events.retry} />
      <Table<AuditEvent>
        rowKey="id"
        size="small"
        loading={events.loading}
        dataSource={[...events.items]}
        pagination={false}
        scroll={{ x: 1200 }}
        locale={{ emptyText: t('audit.empty') }}
        onRow={(record) => ({ onClick: () => setEvent(record), style: { cursor: 'pointer' } })}
        data-testid="audit-table"
        columns={auditColumns({ t, language, names, onOpenCall: setCallId })}
      />
      <CursorPager pages={events} sizes={PAGE_SIZES} testIdPrefix="audit" />
      <EventDrawer event={event} onClose={() => setEvent(null)} onOpenCall={setCallId} />
      <CallTimeline callId={callId} onClose={() => setCallId(null)} onOpenEvent={setEvent} />
    </Card>
  );
}
