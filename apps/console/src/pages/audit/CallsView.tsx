import { DatePicker, Form, Input, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { CALL_STATUSES } from '@toolgate/contract/rules';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useAuditCallsQuery } from '../../api/queries';
import type { AuditCall, AuditCallFilter, AuditPerson } from '../../api/types';
import { usePrincipal } from '../../auth/AuthContext';
import { CursorPager } from '../../components/CursorPager';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FilterForm } from '../../components/FilterForm';
import { formatTime } from '../../components/format';
import { RiskBadge } from '../../components/RiskBadge';
import { TenantPicker } from '../../components/TenantPicker';
import { useCursorPages } from '../../components/useCursorPages';
import { useI18n, useT, type Language, type Translate } from '../../i18n';
import { PAGE_SIZES } from './audit-events';
import { callFilterFromParams, callFilterToParams } from './audit-calls';
import { StatusTag } from './EventTag';

interface Values extends Omit<AuditCallFilter, 'from' | 'to'> {
  range?: [Dayjs | null, Dayjs | null] | null;
}
const blank: Values = {
  tenantId: undefined,
  agentType: undefined,
  tool: undefined,
  target: undefined,
  person: undefined,
  state: undefined,
  code: undefined,
  range: null,
};

function toFilter(v: Values): AuditCallFilter {
  const { range, ...rest } = v;
  const out: AuditCallFilter = {};
  for (const [k, val] of Object.entries(rest))
    if (typeof val === 'string' && val.trim()) (out as Record<string, string>)[k] = val.trim();
  if (range?.[0]) out.from = range[0].toISOString();
  if (range?.[1]) out.to = range[1].toISOString();
  return out;
}

/** A person by name (the id on hover), or the id when the trail names nobody. */
function Person({ p }: { p: AuditPerson }) {
  return (
    <span data-principal-id={p.id} title={p.id}>
      {p.name ?? p.id}
    </span>
  );
}

function CallFilters(props: {
  value: AuditCallFilter;
  tenants: readonly string[];
  onSearch: (f: AuditCallFilter) => void;
}) {
  const t = useT();
  const me = usePrincipal();
  const [form] = Form.useForm<Values>();
  useEffect(() => {
    const { from, to, ...rest } = props.value;
    form.setFieldsValue({
      ...blank,
      ...rest,
      range: from || to ? [from ? dayjs(from) : null, to ? dayjs(to) : null] : null,
    });
  }, [form, props.value]);
  return (
    <FilterForm
      form={form}
      blank={blank}
      onSearch={(v) => props.onSearch(toFilter(v))}
      onReset={() => props.onSearch({})}
      testId="calls"
    >
      <Form.Item name="tenantId" label={t('audit.filter.tenantId')}>
        {me.tenantId ? (
          <Input disabled placeholder={me.tenantId} style={{ width: 140 }} />
        ) : (
          <TenantPicker tenants={props.tenants} />
        )}
      </Form.Item>
      <Form.Item name="tool" label={t('audit.filter.tool')}>
        <Input allowClear style={{ width: 160 }} data-testid="calls-filter-tool" />
      </Form.Item>
      <Form.Item name="target" label={t('audit.calls.target')}>
        <Input
          allowClear
          style={{ width: 200 }}
          placeholder="service=payment-api"
          data-testid="calls-filter-target"
        />
      </Form.Item>
      <Form.Item name="person" label={t('audit.calls.person')}>
        <Input allowClear style={{ width: 160 }} data-testid="calls-filter-person" />
      </Form.Item>
      <Form.Item name="agentType" label={t('common.agentType')}>
        <Input allowClear style={{ width: 150 }} />
      </Form.Item>
      <Form.Item name="state" label={t('audit.calls.state')}>
        <Select
          allowClear
          style={{ width: 150 }}
          placeholder={t('common.all')}
          options={CALL_STATUSES.map((s) => ({ value: s, label: t(`call.${s}`) }))}
        />
      </Form.Item>
      <Form.Item name="code" label={t('audit.filter.code')}>
        <Input allowClear style={{ width: 150 }} />
      </Form.Item>
      <Form.Item name="range" label={t('audit.filter.range')}>
        <DatePicker.RangePicker showTime allowEmpty={[true, true]} />
      </Form.Item>
    </FilterForm>
  );
}

function callColumns(t: Translate, language: Language): TableColumnsType<AuditCall> {
  return [
    {
      title: t('common.time'),
      dataIndex: 'requestedAt',
      width: 170,
      render: (v: string) => formatTime(v, language),
    },
    { title: t('common.tenant'), dataIndex: 'tenantId', width: 90 },
    {
      title: t('common.tool'),
      dataIndex: 'tool',
      width: 200,
      render: (_, c) => (
        <Space size={4}>
          <Typography.Text code>{c.tool ?? '—'}</Typography.Text>
          <RiskBadge level={c.riskLevel} short />
        </Space>
      ),
    },
    {
      title: t('audit.calls.target'),
      dataIndex: 'target',
      width: 180,
      render: (v: string | null) => v ?? '—',
    },
    {
      title: t('common.agentType'),
      dataIndex: 'agentType',
      width: 130,
      render: (v: string | null) => v ?? '—',
    },
    {
      title: t('audit.calls.requester'),
      dataIndex: 'requester',
      width: 150,
      render: (_, c) => (c.requester ? <Person p={c.requester} /> : '—'),
    },
    {
      title: t('audit.calls.approvers'),
      dataIndex: 'approvers',
      width: 160,
      render: (_, c) =>
        c.approvers.length ? (
          <Space size={4} wrap>
            {c.approvers.map((a) => (
              <Tag key={a.id} color={a.decision === 'approve' ? 'green' : 'red'}>
                <Person p={a} />
              </Tag>
            ))}
          </Space>
        ) : (
          '—'
        ),
    },
    {
      title: t('audit.calls.state'),
      dataIndex: 'state',
      width: 170,
      render: (_, c) => (
        <Space size={4} data-state={c.state}>
          <span>{t(`call.${c.state}`)}</span>
          {c.status && <StatusTag status={c.status} code={c.code} />}
        </Space>
      ),
    },
    { title: t('audit.calls.face'), dataIndex: 'face', width: 70, render: (v: string | null) => v ?? '—' },
  ];
}

/**
 * The audit page's first view: one row per call (`GET /v1/audit/calls`), people by name; a row
 * opens the call's events.
 */
export function CallsView(props: { tenants: readonly string[]; onOpenCall: (callId: string) => void }) {
  const { t, language } = useI18n();
  const calls = useCursorPages({
    fromParams: callFilterFromParams,
    toParams: callFilterToParams,
    useQuery: useAuditCallsQuery,
    initialLimit: 50,
  });
  return (
    <>
      <CallFilters value={calls.filter} tenants={props.tenants} onSearch={calls.search} />
      <ErrorAlert error={calls.error} onRetry={calls.retry} />
      <Table<AuditCall>
        rowKey={(c) => `${c.tenantId}/${c.callId}`}
        size="small"
        loading={calls.loading}
        dataSource={[...calls.items]}
        pagination={false}
        scroll={{ x: 1300 }}
        locale={{ emptyText: t('audit.calls.empty') }}
        onRow={(c) =>
          ({
            onClick: () => props.onOpenCall(c.callId),
            style: { cursor: 'pointer' },
            'data-call-id': c.callId,
          }) as never
        }
        expandable={{
          expandedRowRender: (c) => (
            <Typography.Text code style={{ whiteSpace: 'pre-wrap' }}>
              {JSON.stringify(c.input, null, 2)}
            </Typography.Text>
          ),
          rowExpandable: (c) => c.input !== null,
        }}
        data-testid="calls-table"
        columns={callColumns(t, language)}
      />
      <CursorPager pages={calls} sizes={PAGE_SIZES} testIdPrefix="calls" />
    </>
  );
}
