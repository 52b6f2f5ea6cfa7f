import { Form, Input, Modal, Select } from 'antd';
import { useState } from 'react';
import { createTenant } from '../../api/admin';
import type { Tenant } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useT } from '../../i18n';

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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (v: Values) => {
    setBusy(true);
    setError(null);
    try {
      const tenant = await createTenant({ id: v.id.trim(), name: v.name.trim(), locale: v.locale });
      props.onCreated(tenant);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={props.open}
      title={t('bindings.newTenant')}
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
        initialValues={{ locale: 'zh-CN' }}
        preserve={false}
      >
        <Form.Item
          name="id"
          label={t('bindings.tenantId')}
          rules={[{ required: true, pattern: /^[a-z][a-z0-9_-]{0,63}$/ }]}
        >
          <Input placeholder="initech" />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('bindings.tenantName')}
          rules={[{ required: true, whitespace: true }]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="locale" label={t('bindings.tenantLocale')}>
          <Select
            options={[
              { value: 'zh-CN', label: '中文' },
              { value: 'en', label: 'English' },
            ]}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
