import { Form, Input, Select } from 'antd';
import { useCreateKey } from '../../api/mutations';
import { useBindingsQuery, useTenantsQuery } from '../../api/queries';
import type { CreatedKey, NewKey, Role } from '../../api/types';
import { usePrincipal } from '../../auth/AuthContext';
import { ROLES, SEPARATED_ROLES } from '@toolgate/contract/rules';
import { FormModal } from '../../components/FormModal';
import { useT } from '../../i18n';

/** Every role, in the contract's order (one list: the API's). */
const ALL_ROLES: readonly Role[] = ROLES;
/** The administrators' roles: the platform admin's to give (ADR 039), and platform-wide. */
const ADMINISTRATORS: readonly Role[] = ['platform_admin', ...SEPARATED_ROLES];
/** The separated administrators, whose keys name the person who answers for them under the profile. */
const SEPARATED: Role[] = ['system_admin', 'security_admin', 'audit_admin'];
/** Roles a tenant admin may hand out (within its own tenant). */
const TENANT_GRANTABLE: Role[] = ['tenant_admin', 'approver', 'auditor', 'agent'];
/** Roles that must belong to a tenant. */
const TENANT_BOUND: Role[] = ['tenant_admin', 'approver', 'agent'];

interface Values {
  name: string;
  role: Role;
  tenantId?: string;
  agentTypes?: string[];
  owner?: string;
}

/** The roles the viewer may hand out: as the gateway's key service decides. */
function grantable(me: { role: Role; separatedDuties?: boolean }): readonly Role[] {
  if (me.role === 'platform_admin') return me.separatedDuties ? ADMINISTRATORS : ALL_ROLES;
  return TENANT_GRANTABLE;
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
  const platform = me.tenantId === null;
  const tenants = useTenantsQuery(platform && props.open);
  const ownerRequired = me.separatedDuties === true && role !== undefined && SEPARATED.includes(role);
  const agentTypes = useBindingsQuery(tenantId, role === 'agent');
  const createKey = useCreateKey();

  const submit = async (values: Values) => {
    const body: NewKey = { name: values.name.trim(), role: values.role };
    if (values.tenantId) body.tenantId = values.tenantId;
    if (values.role === 'agent' && values.agentTypes?.length) body.agentTypes = values.agentTypes;
    if (values.owner?.trim()) body.owner = values.owner.trim();
    const created = await createKey.mutateAsync(body);
    form.resetFields();
    props.onCreated(created);
  };

  return (
    <FormModal<Values>
      open={props.open}
      title={t('keys.create')}
      form={form}
      onSubmit={submit}
      onCancel={props.onClose}
      initialValues={{ role: 'approver' }}
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
          options={grantable(me).map((r) => ({
            value: r,
            label: t(`role.${r}`),
          }))}
        />
      </Form.Item>
      {platform && role !== undefined && !ADMINISTRATORS.includes(role) && (
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
            loading={tenants.isLoading}
            placeholder={t('keys.noTenant')}
            options={(tenants.data ?? []).map((x) => ({ value: x.id, label: `${x.name} (${x.id})` }))}
          />
        </Form.Item>
      )}
      {role !== undefined && ADMINISTRATORS.includes(role) && role !== 'platform_admin' && (
        <Form.Item
          name="owner"
          label={t('keys.owner')}
          extra={t('keys.ownerHint')}
          rules={[{ required: ownerRequired, whitespace: true, message: t('keys.ownerRequired') }]}
        >
          <Input maxLength={288} placeholder="oidc:248289761001" data-testid="key-owner" />
        </Form.Item>
      )}
      {role === 'agent' && (
        <Form.Item name="agentTypes" label={t('keys.agentTypes')} extra={t('keys.agentTypesHint')}>
          <Select
            mode="tags"
            loading={agentTypes.isLoading}
            options={(agentTypes.data ?? []).map((b) => ({ value: b.agentType, label: b.agentType }))}
          />
        </Form.Item>
      )}
    </FormModal>
  );
}
