import { DownloadOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { App, Button, Card, Select, Space, Table, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { listTenants } from '../api/admin';
import { exportAudit, getAuditEvent, listAuditEvents, verifyAudit } from '../api/audit';
import { saveBlob } from '../api/client';
import type { AuditEvent, AuditFilter, Verification } from '../api/types';
import { usePrincipal } from '../auth/AuthContext';
import { ErrorAlert } from '../components/ErrorAlert';
import { formatTime } from '../components/format';
import { RiskBadge } from '../components/RiskBadge';
import { useApi } from '../components/useApi';
import { useI18n } from '../i18n';
import { filterFromParams, filterToParams, PAGE_SIZES } from './audit/audit-events';
import { AuditFilters } from './audit/AuditFilters';
import { CallTimeline } from './audit/CallTimeline';
import { EventDrawer } from './audit/EventDrawer';
import { EventTag, StatusTag } from './audit/EventTag';
import { VerifyResult } from './audit/VerifyResult';

/**
 * The audit browser. One page of events at a time (50–200 rows, keyset cursor), so the screen stays
 * fast however many rows the trail holds; earlier pages are reached again through their cursors.
 */
export default function AuditPage() {
  const { t, language } = useI18n();
  const { message } = App.useApp();
  const me = usePrincipal();
  const [params, setParams] = useSearchParams();
  const filter = useMemo(() => filterFromParams(params), [params]);
  const filterKey = JSON.stringify(filter);
  const [limit, setLimit] = useState<number>(50);
  /**
   * Cursors of the pages seen so far under the current filter; the last one is the current page's.
   * Kept with the filter they belong to, so a new filter (search, back button) starts at page 1.
   */
  const [paging, setPaging] = useState<{ key: string; cursors: (string | undefined)[] }>({
    key: filterKey,
    cursors: [undefined],
  });
  const cursors = paging.key === filterKey ? paging.cursors : [undefined];
  const setCursors = (next: (c: (string | undefined)[]) => (string | undefined)[]) =>
    setPaging((p) => ({ key: filterKey, cursors: next(p.key === filterKey ? p.cursors : [undefined]) }));
  const cursor = cursors[cursors.length - 1];
  const page = useApi(
    (signal) => listAuditEvents(filter, { cursor, limit }, signal),
    [filterKey, cursor, limit],
  );
  const tenants = useApi(me.role === 'platform_admin' ? (signal) => listTenants(signal) : null, [me.role]);
  const [event, setEvent] = useState<AuditEvent | null>(null);
  const [callId, setCallId] = useState<string | null>(null);
  const [busy, setBusy] = useState<'csv' | 'jsonl' | 'verify' | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [verdict, setVerdict] = useState<Verification | null>(null);

  const search = (next: AuditFilter) => {
    const nextParams = filterToParams(next);
    const key = JSON.stringify(filterFromParams(new URLSearchParams(nextParams)));
    setPaging({ key, cursors: [undefined] });
    setParams(nextParams);
    // The same filter again on page 1: nothing changes in the deps, so ask explicitly.
    if (key === filterKey && cursors.length === 1) page.reload();
  };

  const download = async (format: 'csv' | 'jsonl') => {
    setBusy(format);
    setActionError(null);
    try {
      const { blob, filename } = await exportAudit(format, filter);
      const name = filename ?? `toolgate-audit.${format}`;
      saveBlob(blob, name);
      message.success(t('audit.exported', { filename: name }));
    } catch (err) {
      setActionError(err);
    } finally {
      setBusy(null);
    }
  };

  const verify = async () => {
    setBusy('verify');
    setActionError(null);
    setVerdict(null);
    try {
      setVerdict(await verifyAudit({ tenantId: filter.tenantId, from: filter.from, to: filter.to }));
    } catch (err) {
      setActionError(err);
    } finally {
      setBusy(null);
    }
  };

  const openEventById = useCallback(async (id: string) => {
    setActionError(null);
    try {
      setEvent(await getAuditEvent(id));
    } catch (err) {
      setActionError(err);
    }
  }, []);

  const items = page.data?.items ?? [];
  const nextCursor = page.data?.nextCursor ?? null;

  return (
    <Card
      title={t('audit.title')}
      data-testid="audit-page"
      extra={
        <Space wrap>
          <Button
            icon={<DownloadOutlined />}
            loading={busy === 'csv'}
            onClick={() => download('csv')}
            data-testid="export-csv"
          >
            {t('audit.exportCsv')}
          </Button>
          <Button
            icon={<DownloadOutlined />}
            loading={busy === 'jsonl'}
            onClick={() => download('jsonl')}
            data-testid="export-jsonl"
          >
            {t('audit.exportJsonl')}
          </Button>
          <Button
            type="primary"
            icon={<SafetyCertificateOutlined />}
            loading={busy === 'verify'}
            onClick={verify}
            data-testid="verify"
          >
            {t('audit.verify')}
          </Button>
        </Space>
      }
    >
      <AuditFilters value={filter} tenants={(tenants.data ?? []).map((x) => x.id)} onSearch={search} />
      <ErrorAlert error={actionError} />
      {verdict && (
        <VerifyResult result={verdict} onOpenEvent={openEventById} onClose={() => setVerdict(null)} />
      )}
      <ErrorAlert error={page.error} onRetry={() => page.reload()} />
      <Table<AuditEvent>
        rowKey="id"
        size="small"
        loading={page.loading}
        dataSource={[...items]}
        pagination={false}
        scroll={{ x: 1200 }}
        locale={{ emptyText: t('audit.empty') }}
        onRow={(record) => ({ onClick: () => setEvent(record), style: { cursor: 'pointer' } })}
        data-testid="audit-table"
        columns={[
          { title: t('audit.col.id'), dataIndex: 'id', width: 90 },
          {
            title: t('common.time'),
            dataIndex: 'occurredAt',
            width: 170,
            render: (v: string) => formatTime(v, language),
          },
          { title: t('common.tenant'), dataIndex: 'tenantId', width: 100 },
          {
            title: t('audit.col.event'),
            dataIndex: 'event',
            width: 130,
            render: (_, e) => <EventTag event={e.event} status={e.status} />,
          },
          {
            title: t('common.tool'),
            dataIndex: 'tool',
            width: 220,
            render: (_, e) =>
              e.tool ? (
                <Space size={4}>
                  <Typography.Text code>{e.tool}</Typography.Text>
                  <RiskBadge level={e.riskLevel} short />
                </Space>
              ) : (
                '—'
              ),
          },
          {
            title: t('common.agentType'),
            dataIndex: 'agentType',
            width: 140,
            render: (v: string | null) => v ?? '—',
          },
          {
            title: t('audit.col.actor'),
            width: 220,
            ellipsis: true,
            render: (_, e) => `${e.actor.type}: ${e.actor.id}`,
          },
          {
            title: t('audit.col.status'),
            width: 150,
            render: (_, e) => <StatusTag status={e.status} code={e.code} />,
          },
          {
            title: t('audit.col.duration'),
            dataIndex: 'durationMs',
            width: 100,
            align: 'right',
            render: (v: number | null | undefined) =>
              typeof v === 'number' ? t('common.msValue', { value: v }) : '—',
          },
          {
            title: t('audit.filter.callId'),
            dataIndex: 'callId',
            width: 140,
            render: (v: string | null) =>
              v ? (
                <Typography.Link
                  onClick={(ev) => {
                    ev.stopPropagation();
                    setCallId(v);
                  }}
                  data-testid="call-link"
                >
                  {v.slice(0, 12)}…
                </Typography.Link>
              ) : (
                '—'
              ),
          },
        ]}
      />
      <Space style={{ marginTop: 16, width: '100%', justifyContent: 'flex-end' }} wrap>
        <Typography.Text type="secondary" data-testid="audit-page-number">
          {t('audit.page', { page: cursors.length })}
        </Typography.Text>
        <Button disabled={cursors.length <= 1 || page.loading} onClick={() => setCursors(() => [undefined])}>
          {t('audit.firstPage')}
        </Button>
        <Button
          disabled={cursors.length <= 1 || page.loading}
          onClick={() => setCursors((c) => c.slice(0, -1))}
        >
          {t('audit.prev')}
        </Button>
        <Button
          disabled={!nextCursor || page.loading}
          onClick={() => nextCursor && setCursors((c) => [...c, nextCursor])}
          data-testid="audit-next"
        >
          {t('audit.next')}
        </Button>
        <Select<number>
          value={limit}
          style={{ width: 130 }}
          onChange={(v) => {
            setLimit(v);
            setCursors(() => [undefined]);
          }}
          options={PAGE_SIZES.map((size) => ({ value: size, label: t('audit.pageSize', { size }) }))}
        />
      </Space>
      <EventDrawer event={event} onClose={() => setEvent(null)} onOpenCall={setCallId} />
      <CallTimeline callId={callId} onClose={() => setCallId(null)} onOpenEvent={setEvent} />
    </Card>
  );
}
