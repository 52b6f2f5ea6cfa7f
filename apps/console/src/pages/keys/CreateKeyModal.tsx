import { Form, Input, Modal, Select } from 'antd';
import { useState } from 'react';
import { createKey, listBindings, listTenants } from '../../api/admin';
import type { CreatedKey, NewKey, Role } from '../../api/types';
import { usePrincipal } from '../../auth/AuthContext';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useApi } from '../../components/useApi';
import { useT } from '../../i18n';

const ALL_ROLES: Role[] = ['platform_admin', 'tenant_admin', 'approver', 'auditor', 'agent'];
/** Roles a tenant admin may hand out (within its own tenant). */
const TENANT_GRANTABLE: Role[] = ['tenant_admin', 'approver', 'auditor', 'agent'];
/** Roles that must belong to a tenant. */
const TENANT_BOUND: Role[] = ['tenant_admin', 'approver', 'agent'];

interface Values {
  name: string;
  role: Role;
  tenantId?: string;
  agentTypes?: string[];
}

/** The create-key form: the roles and tenants the signed-in admin may grant. */
export function CreateKeyModal(props: {
  open: boolean;
  onClose: () => void;
  onCreated: (key: CreatedKey) => void;
}) {
  const t = useT();
  const me = usePrincipal();
  const [form] = Form.useForm<Values>();
  const role = Form.useWatch('role', form);
  const tenantId = Form.useWatch('tenantId', form) ?? me.tenantId ?? undefined;
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const platform = me.role === 'platform_admin';
  const tenants = useApi(platform && props.open ? (signal) => listTenants(signal) : null, [
    platform,
    props.open,
  ]);
  const agentTypes = useApi(
    role === 'agent' && tenantId ? (signal) => listBindings(tenantId, signal) : null,
    [role, tenantId],
  );

  const submit = async (values: Values) => {
    setBusy(true);
    setError(null);
    try {
      const body: NewKey = { name: values.name.trim(), role: values.role };
      if (values.tenantId) body.tenantId = values.tenantId;
      if (values.role === 'agent' && values.agentTypes?.length) body.agentTypes = values.agentTypes;
      const created = await createKey(body);
      form.resetFields();
      props.onCreated(created);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={props.open}
      title={t('keys.create')}
      onCancel={props.onClose}
      onOk={() => form.submit()}
      confirmLoading={busy}
      destroyOnHidden
    >
      <ErrorAlert error={error} />
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ role: 'approver' }}
        preserve={false}
      >
        <Form.Item
          name="name"
          label={t('keys.name')}
          rules={[{ required: true, whitespace: true, message: t('keys.nameRequired') }]}
        >
          <Input maxLength={200} data-testid="key-name" />
        </Form.Item>
        <Form.Item name="role" label={t('keys.role')} rules={[{ required: true }]}>
          <Select<Role>
            options={(platform ? ALL_ROLES : TENANT_GRANTABLE).map((r) => ({
              value: r,
              label: t(`role.${r}`),
            }))}
          />
        </Form.Item>
        {platform && role !== 'platform_admin' && (
          <Form.Item
            name="tenantId"
            label={t('keys.tenant')}
            rules={[
              {
                required: role !== undefined && TENANT_BOUND.includes(role),
                message: t('keys.tenantRequired'),
              },
            ]}
          >
            <Select
              allowClear
              loading={tenants.loading}
              placeholder={t('keys.noTenant')}
              options={(tenants.data ?? []).map((x) => ({ value: x.id, label: `${x.name} (${x.id})` }))}
            />
          </Form.Item>
        )}
        {role === 'agent' && (
          <Form.Item name="agentTypes" label={t('keys.agentTypes')} extra={t('keys.agentTypesHint')}>
            <Select
              mode="tags"
              loading={agentTypes.loading}
              options={(agentTypes.data ?? []).map((b) => ({ value: b.agentType, label: b.agentType }))}
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
