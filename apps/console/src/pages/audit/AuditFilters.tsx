import { DatePicker, Form, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { RISK_LEVELS, type AuditFilter, type RiskLevel } from '../../api/types';
import { usePrincipal } from '../../auth/AuthContext';
import { FilterForm } from '../../components/FilterForm';
import { TenantPicker } from '../../components/TenantPicker';
import { RiskBadge } from '../../components/RiskBadge';
import { useT } from '../../i18n';
import { AUDIT_EVENT_TYPES } from '@toolgate/contract/rules';

/** The filter as the form holds it: `from` and `to` as one date range. */
interface Values extends Omit<AuditFilter, 'from' | 'to'> {
  range?: [Dayjs | null, Dayjs | null] | null;
}

function toValues(f: AuditFilter): Values {
  const { from, to, ...rest } = f;
  return { ...rest, range: from || to ? [from ? dayjs(from) : null, to ? dayjs(to) : null] : null };
}

function toFilter(v: Values): AuditFilter {
  const { range, ...rest } = v;
  const out: AuditFilter = {};
  for (const [k, val] of Object.entries(rest))
    if (typeof val === 'string' && val.trim()) (out as Record<string, string>)[k] = val.trim();
  if (range?.[0]) out.from = range[0].toISOString();
  if (range?.[1]) out.to = range[1].toISOString();
  return out;
}

/** Every filter of `GET /v1/audit/events`; a tenant-bound reader's tenant is fixed. */
export function AuditFilters(props: {
  value: AuditFilter;
  tenants: readonly string[];
  onSearch: (filter: AuditFilter) => void;
}) {
  const t = useT();
  const me = usePrincipal();
  const [form] = Form.useForm<Values>();
  useEffect(() => form.setFieldsValue({ ...blank, ...toValues(props.value) }), [form, props.value]);
  const fixedTenant = me.tenantId;

  return (
    <FilterForm
      form={form}
      blank={blank}
      onSearch={(v) => props.onSearch(toFilter(v))}
      onReset={() => props.onSearch({})}
      testId="audit"
    >
      <Form.Item name="tenantId" label={t('audit.filter.tenantId')}>
        {fixedTenant ? (
          <Input disabled placeholder={fixedTenant} style={{ width: 140 }} />
        ) : (
          <TenantPicker tenants={props.tenants} />
        )}
      </Form.Item>
      <Form.Item name="tool" label={t('audit.filter.tool')}>
        <Input allowClear style={{ width: 180 }} data-testid="filter-tool" />
      </Form.Item>
      <Form.Item name="riskLevel" label={t('audit.filter.riskLevel')}>
        <Select<RiskLevel>
          allowClear
          style={{ width: 130 }}
          placeholder={t('common.all')}
          options={RISK_LEVELS.map((r) => ({
            value: r,
            label: <RiskBadge level={r} short />,
          }))}
        />
      </Form.Item>
      <Form.Item name="event" label={t('audit.filter.event')}>
        <Select
          allowClear
          style={{ width: 150 }}
          placeholder={t('common.all')}
          options={AUDIT_EVENT_TYPES.map((e) => ({ value: e, label: t(`event.${e}`) }))}
        />
      </Form.Item>
      <Form.Item name="status" label={t('audit.filter.status')}>
        <Select
          allowClear
          style={{ width: 110 }}
          placeholder={t('common.all')}
          options={[
            { value: 'ok', label: t('audit.status.ok') },
            { value: 'error', label: t('audit.status.error') },
          ]}
        />
      </Form.Item>
      <Form.Item name="code" label={t('audit.filter.code')}>
        <Input allowClear style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="actorId" label={t('audit.filter.actorId')}>
        <Input allowClear style={{ width: 200 }} />
      </Form.Item>
      <Form.Item name="callId" label={t('audit.filter.callId')}>
        <Input allowClear style={{ width: 240 }} />
      </Form.Item>
      <Form.Item name="range" label={t('audit.filter.range')}>
        <DatePicker.RangePicker showTime allowEmpty={[true, true]} />
      </Form.Item>
    </FilterForm>
  );
}

const blank: Values = {
  tenantId: undefined,
  tool: undefined,
  riskLevel: undefined,
  actorId: undefined,
  status: undefined,
  code: undefined,
  event: undefined,
  callId: undefined,
  range: null,
};
