import { Form, Input, Select } from 'antd';
import { useCreateTenant } from '../../api/mutations';
import type { Tenant } from '../../api/types';
import { FormModal } from '../../components/FormModal';
import { LANGUAGE_OPTIONS, useT } from '../../i18n';

interface Values {
  id: string;
  name: string;
  locale: 'zh-CN' | 'en';
}

/** Creates a tenant (platform admins). */
export function NewTenantModal(props: {
  open: boolean;
  onClose: () => void;
  onCreated: (tenant: Tenant) => void;
}) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const createTenant = useCreateTenant();

  const submit = async (v: Values) => {
    props.onCreated(
      await createTenant.mutateAsync({ id: v.id.trim(), name: v.name.trim(), locale: v.locale }),
    );
  };

  return (
    <FormModal<Values>
      open={props.open}
      title={t('bindings.newTenant')}
      form={form}
      onSubmit={submit}
      onCancel={props.onClose}
      initialValues={{ locale: 'zh-CN' }}
    >
      <Form.Item
        name="id"
        label={t('bindings.tenantId')}
        rules={[{ required: true, pattern: /^[a-z][a-z0-9_-]{0,63}$/ }]}
      >
        <Input placeholder="initech" />
      </Form.Item>
      <Form.Item name="name" label={t('bindings.tenantName')} rules={[{ required: true, whitespace: true }]}>
        <Input />
      </Form.Item>
      <Form.Item name="locale" label={t('bindings.tenantLocale')}>
        <Select options={LANGUAGE_OPTIONS} />
      </Form.Item>
    </FormModal>
  );
}
