import { isTenantEnvName, tenantEnvNamespace } from '@toolgate/contract/rules';
import { Form, Input, InputNumber, Select } from 'antd';
import { useRegisterUpstream } from '../../api/mutations';
import type { RegisterUpstreamBody, RegisteredUpstream } from '../../api/types';
import { FormModal } from '../../components/FormModal';
import { useT } from '../../i18n';

/** Mirrors the API's rules so most mistakes are caught before the round trip (the API still decides). */
const NAME = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
const HEADER = /^[A-Za-z0-9-]{1,100}$/;
const MAX_TIMEOUT_MS = 30_000;

interface Values {
  name: string;
  kind: 'mcp' | 'openapi';
  url: string;
  authHeader?: string;
  secretEnv?: string;
  timeoutMs?: number | null;
  region?: string;
}

/** ISO 3166-1 alpha-2, as the gateway checks it (CN: mainland China). */
const REGION = /^[A-Z]{2}$/;

/**
 * Registers an outside tool source. The secret itself never passes through the console: the admin
 * names the gateway environment variable that holds it.
 */
export function RegisterUpstreamModal(props: {
  tenantId: string;
  open: boolean;
  onClose: () => void;
  onRegistered: (registered: RegisteredUpstream) => void;
}) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const register = useRegisterUpstream(props.tenantId);
  const authHeader = Form.useWatch('authHeader', form);
  const secretEnv = Form.useWatch('secretEnv', form);
  const wantsAuth = Boolean(authHeader?.trim() || secretEnv?.trim());
  // Each tenant's upstream secrets are its own variables: TOOLGATE_UPSTREAM_<TENANT>__<NAME>.
  const secretPrefix = tenantEnvNamespace('upstream', props.tenantId);

  const submit = async (v: Values) => {
    const body: RegisterUpstreamBody = { name: v.name.trim(), kind: v.kind, url: v.url.trim() };
    if (v.authHeader?.trim() && v.secretEnv?.trim())
      body.auth = { header: v.authHeader.trim(), secretEnv: v.secretEnv.trim() };
    if (v.timeoutMs) body.timeoutMs = v.timeoutMs;
    if (v.region?.trim()) body.region = v.region.trim().toUpperCase();
    const registered = await register.mutateAsync(body);
    form.resetFields();
    props.onRegistered(registered);
  };

  return (
    <FormModal<Values>
      open={props.open}
      title={t('upstreams.register')}
      form={form}
      onSubmit={submit}
      onCancel={props.onClose}
      initialValues={{ kind: 'mcp' }}
      okText={t('upstreams.registerSubmit')}
    >
      <Form.Item
        name="name"
        label={t('upstreams.name')}
        extra={t('upstreams.nameHint')}
        rules={[
          { required: true, message: t('upstreams.nameRequired') },
          { pattern: NAME, message: t('upstreams.nameRule') },
          { max: 32 },
        ]}
      >
        <Input maxLength={32} data-testid="upstream-name" />
      </Form.Item>
      <Form.Item name="kind" label={t('upstreams.kind')} rules={[{ required: true }]}>
        <Select
          options={[
            { value: 'mcp', label: t('upstreams.kind.mcp') },
            { value: 'openapi', label: t('upstreams.kind.openapi') },
          ]}
        />
      </Form.Item>
      <Form.Item
        name="url"
        label={t('upstreams.url')}
        rules={[
          { required: true, message: t('upstreams.urlRule') },
          // Only the scheme here: a generic URL rule refuses in-cluster names (http://crm/mcp) and
          // one-digit ports that the gateway accepts; the API checks the rest.
          { pattern: /^https?:\/\/\S+$/i, message: t('upstreams.urlRule') },
        ]}
      >
        <Input maxLength={2000} placeholder="https://crm.example.com/mcp" data-testid="upstream-url" />
      </Form.Item>
      <Form.Item
        name="authHeader"
        label={t('upstreams.authHeader')}
        extra={t('upstreams.authHeaderHint')}
        rules={[
          { required: wantsAuth, message: t('upstreams.authPair') },
          { pattern: HEADER, message: t('upstreams.headerRule') },
        ]}
      >
        <Input placeholder="authorization" data-testid="upstream-auth-header" />
      </Form.Item>
      <Form.Item
        name="secretEnv"
        label={t('upstreams.secretEnv')}
        extra={t('upstreams.secretEnvHint', { prefix: secretPrefix })}
        rules={[
          { required: wantsAuth, message: t('upstreams.authPair') },
          {
            validator: async (_, value?: string) => {
              if (value?.trim() && !isTenantEnvName('upstream', props.tenantId, value.trim()))
                throw new Error(t('upstreams.secretEnvRule', { prefix: secretPrefix }));
            },
          },
        ]}
      >
        <Input placeholder={`${secretPrefix}CRM_TOKEN`} data-testid="upstream-secret-env" />
      </Form.Item>
      <Form.Item name="timeoutMs" label={t('upstreams.timeoutMs')} extra={t('upstreams.timeoutHint')}>
        <InputNumber
          min={1}
          max={MAX_TIMEOUT_MS}
          step={500}
          style={{ width: 200 }}
          data-testid="upstream-timeout"
        />
      </Form.Item>
      {/* Where the source processes data: the cross-border guard reads it for every call (ADR 047). */}
      <Form.Item
        name="region"
        label={t('upstreams.region')}
        extra={t('upstreams.regionHint')}
        rules={[
          {
            pattern: REGION,
            message: t('upstreams.regionHint'),
            transform: (v?: string) => v?.trim().toUpperCase(),
          },
        ]}
      >
        <Input placeholder="CN" maxLength={2} style={{ width: 120 }} data-testid="upstream-region" />
      </Form.Item>
    </FormModal>
  );
}
