import { Form, Input, Select } from 'antd';
import { useEffect } from 'react';
import { RUN_STATUSES, type RunFilter, type RunStatus } from '../../api/types';
import { FilterForm } from '../../components/FilterForm';
import { TenantPicker } from '../../components/TenantPicker';
import { useT } from '../../i18n';

const blank: RunFilter = {
  tenantId: undefined,
  agentType: undefined,
  status: undefined,
  sessionId: undefined,
};

/** The filters of `GET /v1/runs`; the tenant one only for a platform admin (others see their own). */
export function RunFilters(props: {
  value: RunFilter;
  /** Tenants to pick from; null when the viewer is bound to one tenant. */
  tenants: readonly string[] | null;
  onSearch: (filter: RunFilter) => void;
}) {
  const t = useT();
  const [form] = Form.useForm<RunFilter>();
  useEffect(() => form.setFieldsValue({ ...blank, ...props.value }), [form, props.value]);

  return (
    <FilterForm
      form={form}
      blank={blank}
      onSearch={props.onSearch}
      onReset={() => props.onSearch({})}
      testId="runs"
    >
      {props.tenants && (
        <Form.Item name="tenantId" label={t('common.tenant')}>
          <TenantPicker tenants={props.tenants} />
        </Form.Item>
      )}
      <Form.Item name="agentType" label={t('runs.filter.agentType')}>
        <Input allowClear style={{ width: 170 }} data-testid="filter-agent-type" />
      </Form.Item>
      <Form.Item name="status" label={t('runs.filter.status')}>
        <Select<RunStatus>
          allowClear
          style={{ width: 140 }}
          placeholder={t('common.all')}
          options={RUN_STATUSES.map((s) => ({ value: s, label: t(`runs.status.${s}`) }))}
          data-testid="filter-status"
        />
      </Form.Item>
      <Form.Item name="sessionId" label={t('runs.filter.sessionId')}>
        <Input allowClear style={{ width: 240 }} />
      </Form.Item>
    </FilterForm>
  );
}
