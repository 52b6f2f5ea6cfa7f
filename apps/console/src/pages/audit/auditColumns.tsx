import { Space, Typography, type TableColumnsType } from 'antd';
import type { AuditEvent } from '../../api/types';
import { formatTime } from '../../components/format';
import { RiskBadge } from '../../components/RiskBadge';
import type { Language, Translate } from '../../i18n';
import { EventTag, StatusTag } from './EventTag';
import { PrincipalName } from './PrincipalName';
import type { KeyNames } from './useKeyNames';

/** The columns of the audit table; a call id opens the call's timeline. */
export function auditColumns(options: {
  t: Translate;
  language: Language;
  names: KeyNames;
  onOpenCall: (callId: string) => void;
}): TableColumnsType<AuditEvent> {
  const { t, language, names, onOpenCall } = options;
  return [
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
      render: (_, e) => <PrincipalName id={e.actor.id} type={e.actor.type} names={names} />,
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
              onOpenCall(v);
            }}
            data-testid="call-link"
          >
            {v.slice(0, 12)}…
          </Typography.Link>
        ) : (
          '—'
        ),
    },
  ];
}
