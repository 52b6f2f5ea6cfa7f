import { RunOfEvent } from './RunOfEvent';
import { NodeIndexOutlined } from '@ant-design/icons';
import { Alert, Button, Descriptions, Drawer, Space, Typography, type DescriptionsProps } from 'antd';
import type { ReactNode } from 'react';
import type { AuditEvent } from '../../api/types';
import { formatTime } from '../../components/format';
import { JsonView } from '../../components/JsonView';
import { RiskBadge } from '../../components/RiskBadge';
import { useI18n } from '../../i18n';
import { fieldLabel, idOf, unknownFields, type EventField } from './event-fields';
import { EventTag, StatusTag } from './EventTag';
import { PrincipalName } from './PrincipalName';
import { useKeyNames } from './useKeyNames';

const text = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));
const code = (v: unknown) =>
  v === null || v === undefined || v === '' ? (
    '—'
  ) : (
    <Typography.Text code copyable>
      {String(v)}
    </Typography.Text>
  );

/** Every field of one audit event, each under its translated label; JSON fields pretty-printed. */
export function EventDrawer(props: {
  event: AuditEvent | null;
  onClose: () => void;
  /** Stacking order: the page puts whichever drawer was opened last on top. */
  zIndex?: number;
  onOpenCall: (callId: string) => void;
  /** What the last verification found wrong with this event, if it found anything. */
  broken?: string;
}) {
  const { t, language } = useI18n();
  const names = useKeyNames();
  const e = props.event;
  const row = (field: EventField, children: ReactNode, span?: number) => ({
    key: field,
    label: t(fieldLabel(field)),
    children,
    span,
  });
  const items = (e: AuditEvent): DescriptionsProps['items'] => [
    row('event', <EventTag event={e.event} status={e.status} />),
    row('occurredAt', `${formatTime(e.occurredAt, language)} (${e.occurredAt})`),
    row('tenantId', e.tenantId),
    row('seq', e.seq),
    row('tool', text(e.tool)),
    row('riskLevel', e.riskLevel ? <RiskBadge level={e.riskLevel} /> : '—'),
    row('implementation', text(e.implementation)),
    row('agentType', text(e.agentType)),
    row('callId', code(e.callId), 2),
    row('sessionId', text(e.sessionId), 2),
    row('actor', <PrincipalName id={e.actor.id} type={e.actor.type} names={names} withId />, 2),
    row('initiatorId', <PrincipalName id={idOf(e.initiatorId)} names={names} withId />),
    row('approver', <PrincipalName id={e.approver?.id} names={names} withId />),
    row('status', <StatusTag status={e.status} code={e.code} />),
    row('durationMs', typeof e.durationMs === 'number' ? t('common.msValue', { value: e.durationMs }) : '—'),
    row('bindingVersion', text(e.bindingVersion), 2),
    row('definitionHash', code(e.definitionHash), 2),
    row('hash', code(e.hash), 2),
    row('prevHash', code(e.prevHash), 2),
    ...unknownFields(e).map(([k, v]) => ({
      key: k,
      label: k,
      span: 2,
      children: typeof v === 'object' && v !== null ? <JsonView value={v} maxHeight={160} /> : text(v),
    })),
  ];

  return (
    <Drawer
      open={e !== null}
      onClose={props.onClose}
      zIndex={props.zIndex}
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
          {props.broken !== undefined && (
            <Alert
              type="error"
              showIcon
              data-testid="event-broken"
              title={t('audit.brokenEvent')}
              description={props.broken}
            />
          )}
          <RunOfEvent events={[e]} />
          <Descriptions size="small" bordered column={2} items={items(e)} />
          <Section title={t(fieldLabel('input'))} value={e.input} />
          {e.outputSummary !== undefined && e.outputSummary !== null && (
            <Section title={t(fieldLabel('outputSummary'))} value={e.outputSummary} />
          )}
          {e.details !== undefined && e.details !== null && (
            <Section title={t(fieldLabel('details'))} value={e.details} />
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
