import { Card, Space, Table, Tabs } from 'antd';
import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useApiClient } from '../api/ApiClientContext';
import { getAuditEvent } from '../api/audit';
import { useTenantsQuery } from '../api/queries';
import type { AuditEvent, Verification } from '../api/types';
import { holds } from '../auth/access';
import { usePrincipal } from '../auth/AuthContext';
import { ErrorAlert } from '../components/ErrorAlert';
import { useI18n } from '../i18n';
import { auditColumns } from './audit/auditColumns';
import { AuditFilters } from './audit/AuditFilters';
import { CursorPager } from '../components/CursorPager';
import { PAGE_SIZES } from './audit/audit-events';
import { CallsView } from './audit/CallsView';
import { CallTimeline } from './audit/CallTimeline';
import { ProcessingRecordsView } from './audit/ProcessingRecordsView';
import { SinksView } from './audit/SinksView';
import { EventDrawer } from './audit/EventDrawer';
import { ExportButton } from './audit/ExportButton';
import { useAuditEvents } from './audit/useAuditEvents';
import { useKeyNames } from './audit/useKeyNames';
import { VerifyButton } from './audit/VerifyButton';
import { VerifyResult } from './audit/VerifyResult';

/**
 * The audit browser: the calls first (one row per call, people by name; a row opens the call's
 * events), the events behind a tab (`?view=events`). One page at a time (50–200 rows, keyset
 * cursor), so the screen stays fast however many rows the trail holds.
 */
export default function AuditPage() {
  const { t } = useI18n();
  const me = usePrincipal();
  const tenants = useTenantsQuery(me.tenantId === null && holds(me, 'tenants.read'));
  const [params, setParams] = useSearchParams();
  const [callId, setCallIdState] = useState<string | null>(null);
  const [event, setEventState] = useState<AuditEvent | null>(null);
  // The drawer opened last is on top: each opens the other (an event its call, a call its events).
  const [onTop, setOnTop] = useState<'event' | 'call'>('call');
  const setCallId = useCallback((id: string | null) => {
    setCallIdState(id);
    if (id) setOnTop('call');
  }, []);
  const setEvent = useCallback((e: AuditEvent | null) => {
    setEventState(e);
    if (e) setOnTop('event');
  }, []);
  const [verdict, setVerdict] = useState<Verification | null>(null);
  const broken = brokenEvents(verdict);
  // Sinks carry every tenant's events: the platform's auditors and admins only (ADR 038).
  const seesSinks = holds(me, 'trail.sinks');
  const asked = params.get('view');
  const view =
    asked === 'events' || asked === 'processing' || (asked === 'sinks' && seesSinks) ? asked : 'calls';
  const tenantIds = (tenants.data ?? []).map((x) => x.id);
  return (
    <Card title={t('audit.title')} data-testid="audit-page">
      <Tabs
        activeKey={view}
        onChange={(key) => setParams(key === 'calls' ? {} : { view: key })}
        items={[
          {
            key: 'calls',
            label: <span data-testid="audit-tab-calls">{t('audit.tab.calls')}</span>,
            children: view === 'calls' && <CallsView tenants={tenantIds} onOpenCall={setCallId} />,
          },
          {
            key: 'events',
            label: <span data-testid="audit-tab-events">{t('audit.tab.events')}</span>,
            children: view === 'events' && (
              <EventsView
                tenants={tenantIds}
                onOpenCall={setCallId}
                onOpenEvent={setEvent}
                verdict={verdict}
                onVerdict={setVerdict}
              />
            ),
          },
          {
            key: 'processing',
            label: <span data-testid="audit-tab-processing">{t('audit.tab.processing')}</span>,
            children: view === 'processing' && (
              <ProcessingRecordsView tenantId={me.tenantId} tenants={tenantIds} />
            ),
          },
          ...(seesSinks
            ? [
                {
                  key: 'sinks',
                  label: <span data-testid="audit-tab-sinks">{t('audit.tab.sinks')}</span>,
                  children: view === 'sinks' && <SinksView />,
                },
              ]
            : []),
        ]}
      />
      <EventDrawer
        event={event}
        onClose={() => setEvent(null)}
        onOpenCall={setCallId}
        zIndex={onTop === 'event' ? 1010 : 1000}
        broken={event ? broken.get(event.id) : undefined}
      />
      <CallTimeline
        callId={callId}
        onClose={() => setCallId(null)}
        onOpenEvent={setEvent}
        zIndex={onTop === 'call' ? 1010 : 1000}
      />
    </Card>
  );
}

/** The events the last verification found broken, each with what was wrong with it. */
function brokenEvents(verdict: Verification | null): ReadonlyMap<string, string> {
  const broken = new Map<string, string>();
  for (const tenant of verdict?.tenants ?? []) {
    for (const b of tenant.breaks ?? []) if (b.eventId) broken.set(b.eventId, b.problem);
    if (tenant.firstBrokenEventId && !broken.has(tenant.firstBrokenEventId))
      broken.set(tenant.firstBrokenEventId, tenant.problem ?? '');
  }
  return broken;
}

/** The events of the trail, filtered, exported and verified. */
function EventsView(props: {
  tenants: readonly string[];
  onOpenCall: (callId: string) => void;
  onOpenEvent: (e: AuditEvent) => void;
  verdict: Verification | null;
  onVerdict: (verdict: Verification | null) => void;
}) {
  const { t, language } = useI18n();
  const api = useApiClient();
  const events = useAuditEvents();
  const names = useKeyNames();
  const { onOpenEvent: setEvent, onOpenCall: setCallId } = props;
  const [actionError, setActionError] = useState<unknown>(null);
  const { verdict, onVerdict: setVerdict } = props;

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
    [api, setEvent],
  );

  return (
    <>
      <Space wrap style={{ marginBottom: 12 }}>
        <ExportButton format="csv" filter={events.filter} onStart={clearError} onError={setActionError} />
        <ExportButton format="jsonl" filter={events.filter} onStart={clearError} onError={setActionError} />
        <VerifyButton
          filter={events.filter}
          onStart={startVerify}
          onVerdict={setVerdict}
          onError={setActionError}
        />
      </Space>
      <AuditFilters value={events.filter} tenants={props.tenants} onSearch={events.search} />
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
    </>
  );
}
