import { Form, Modal, type FormInstance, type ModalProps } from 'antd';
import { useState, type ReactNode } from 'react';
import { ErrorAlert } from './ErrorAlert';

/**
 * A form in a modal: OK submits the form and spins while `onSubmit` runs; a failure shows above the
 * form until the next try, and is forgotten when the modal is cancelled.
 */
export function FormModal<V extends object>(props: {
  open: boolean;
  title: ReactNode;
  form: FormInstance<V>;
  onSubmit: (values: V) => Promise<void>;
  onCancel: () => void;
  initialValues?: Partial<V>;
  okText?: ReactNode;
  okButtonProps?: ModalProps['okButtonProps'];
  children: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (values: V) => {
    setBusy(true);
    setError(null);
    try {
      await props.onSubmit(values);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={props.open}
      title={props.title}
      okText={props.okText}
      okButtonProps={props.okButtonProps}
      confirmLoading={busy}
      onOk={() => props.form.submit()}
      onCancel={() => {
        setError(null);
        props.onCancel();
      }}
      destroyOnHidden
    >
      <ErrorAlert error={error} />
      <Form<V>
        form={props.form}
        layout="vertical"
        onFinish={submit}
        initialValues={props.initialValues}
        preserve={false}
      >
        {props.children}
      </Form>
    </Modal>
  );
}
