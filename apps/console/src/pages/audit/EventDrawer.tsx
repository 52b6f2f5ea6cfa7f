import { NodeIndexOutlined } from '@ant-design/icons';
import { Button, Descriptions, Drawer, Space, Typography } from 'antd';
import type { AuditEvent } from '../../api/types';
import { formatTime } from '../../components/format';
import { JsonView } from '../../components/JsonView';
import { RiskBadge } from '../../components/RiskBadge';
import { useI18n } from '../../i18n';
import { EventTag, StatusTag } from './EventTag';

/** Fields shown in their own rows; anything else the API adds is listed after them. */
const KNOWN = new Set([
  'id',
  'tenantId',
  'seq',
  'callId',
  'event',
  'tool',
  'implementation',
  'riskLevel',
  'agentType',
  'sessionId',
  'actor',
  'approver',
  'input',
  'outputSummary',
  'status',
  'code',
  'durationMs',
  'details',
  'occurredAt',
  'prevHash',
  'hash',
]);

const text = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));

/** Every field of one audit event; JSON fields pretty-printed. */
export function EventDrawer(props: {
  event: AuditEvent | null;
  onClose: () => void;
  onOpenCall: (callId: string) => void;
}) {
  const { t, language } = useI18n();
  const e = props.event;
  const extra = e ? Object.entries(e).filter(([k]) => !KNOWN.has(k)) : [];
  return (
    <Drawer
      open={e !== null}
      onClose={props.onClose}
      size={760}
      title={e && t('audit.drawer.title', { id: e.id })}
      data-testid="event-drawer"
      extra={
        e?.callId && (
          <Button
            icon={<NodeIndexOutlined />}
            onClick={() => props.onOpenCall(e.callId!)}
            data-testid="open-timeline"
          >
            {t('audit.drawer.timeline')}
          </Button>
        )
      }
    >
      {e && (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions
            size="small"
            bordered
            column={2}
            items={[
              {
                key: 'event',
                label: t('audit.col.event'),
                children: <EventTag event={e.event} status={e.status} />,
              },
              {
                key: 'at',
                label: t('common.time'),
                children: `${formatTime(e.occurredAt, language)} (${e.occurredAt})`,
              },
              { key: 'tenant', label: t('common.tenant'), children: e.tenantId },
              { key: 'seq', label: t('audit.field.seq'), children: e.seq },
              { key: 'tool', label: t('common.tool'), children: text(e.tool) },
              {
                key: 'risk',
                label: t('common.risk'),
                children: e.riskLevel ? <RiskBadge level={e.riskLevel} /> : '—',
              },
              { key: 'impl', label: t('audit.field.implementation'), children: text(e.implementation) },
              { key: 'agent', label: t('common.agentType'), children: text(e.agentType) },
              {
                key: 'call',
                label: t('audit.filter.callId'),
                span: 2,
                children: e.callId ? (
                  <Typography.Text code copyable>
                    {e.callId}
                  </Typography.Text>
                ) : (
                  '—'
                ),
              },
              { key: 'session', label: t('audit.field.session'), span: 2, children: text(e.sessionId) },
              { key: 'actor', label: t('audit.col.actor'), children: `${e.actor.type}: ${e.actor.id}` },
              { key: 'approver', label: t('audit.field.approver'), children: text(e.approver?.id) },
              {
                key: 'status',
                label: t('audit.col.status'),
                children: <StatusTag status={e.status} code={e.code} />,
              },
              {
                key: 'duration',
                label: t('audit.col.duration'),
                children:
                  e.durationMs === null || e.durationMs === undefined
                    ? '—'
                    : t('common.msValue', { value: e.durationMs }),
              },
              {
                key: 'hash',
                label: t('audit.field.hash'),
                span: 2,
                children: (
                  <Typography.Text code copyable>
                    {e.hash}
                  </Typography.Text>
                ),
              },
              {
                key: 'prev',
                label: t('audit.field.prevHash'),
                span: 2,
                children: (
                  <Typography.Text code copyable>
                    {e.prevHash}
                  </Typography.Text>
                ),
              },
              ...extra.map(([k, v]) => ({
                key: k,
                label: k,
                span: 2,
                children:
                  typeof v === 'object' && v !== null ? <JsonView value={v} maxHeight={160} /> : text(v),
              })),
            ]}
          />
          <Section title={t('audit.field.input')} value={e.input} />
          {e.outputSummary !== undefined && e.outputSummary !== null && (
            <Section title={t('audit.field.outputSummary')} value={e.outputSummary} />
          )}
          {e.details !== undefined && e.details !== null && (
            <Section title={t('audit.field.details')} value={e.details} />
          )}
        </Space>
      )}
    </Drawer>
  );
}

function Section({ title, value }: { title: string; value: unknown }) {
  return (
    <div>
      <Typography.Title level={5}>{title}</Typography.Title>
      <JsonView value={value} />
    </div>
  );
}
