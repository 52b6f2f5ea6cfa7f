import { App, Form, Input } from 'antd';
import { useDecideApproval } from '../../api/mutations';
import type { Approval } from '../../api/types';
import { FormModal } from '../../components/FormModal';
import { useT } from '../../i18n';

export type Decision = 'approve' | 'deny';

/** Asks for the comment (required to deny) and sends the decision; the inbox refetches. */
export function DecisionModal(props: {
  target: { approval: Approval; decision: Decision } | null;
  onClose: () => void;
  onDecided: () => void;
}) {
  const t = useT();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ comment?: string }>();
  const decide = useDecideApproval();
  const target = props.target;
  const denying = target?.decision === 'deny';

  const submit = async ({ comment }: { comment?: string }) => {
    if (!target) return;
    const text = comment?.trim() || undefined;
    const result = await decide.mutateAsync({
      approvalId: target.approval.approvalId,
      decision: target.decision,
      comment: text,
    });
    // No call comes back when the approval was already closed by someone else (the call is gone).
    if (result.call) message.success(t('approvals.decided', { status: t(`call.${result.call.status}`) }));
    form.resetFields();
    props.onDecided();
  };

  return (
    <FormModal
      open={target !== null}
      title={
        target &&
        t(denying ? 'approvals.denyTitle' : 'approvals.approveTitle', { tool: target.approval.tool })
      }
      okText={denying ? t('approvals.deny') : t('approvals.approve')}
      okButtonProps={{ danger: denying }}
      form={form}
      onSubmit={submit}
      onCancel={props.onClose}
    >
      {target && <p style={{ whiteSpace: 'pre-wrap' }}>{target.approval.prompt}</p>}
      <Form.Item
        name="comment"
        label={denying ? t('approvals.comment') : t('approvals.commentOptional')}
        rules={denying ? [{ required: true, whitespace: true, message: t('approvals.commentRequired') }] : []}
      >
        <Input.TextArea rows={3} maxLength={1000} showCount data-testid="decision-comment" />
      </Form.Item>
    </FormModal>
  );
}
