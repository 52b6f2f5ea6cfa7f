import { StopOutlined } from '@ant-design/icons';
import { App, Button, Popconfirm } from 'antd';
import { useCancelRun } from '../../api/mutations';
import { useT } from '../../i18n';

/** Cancels a run after a confirmation; shown to the roles that may cancel, while the run is under way. */
export function CancelRunButton(props: { runId: string; onError: (error: unknown) => void }) {
  const t = useT();
  const { message } = App.useApp();
  const cancel = useCancelRun();
  return (
    <Popconfirm
      title={t('runs.cancel')}
      description={t('runs.cancelConfirm')}
      okButtonProps={{ danger: true }}
      onConfirm={() =>
        cancel.mutate(props.runId, {
          onSuccess: () => message.success(t('runs.cancelledOk')),
          onError: props.onError,
        })
      }
    >
      <Button danger icon={<StopOutlined />} loading={cancel.isPending} data-testid="run-cancel">
        {t('runs.cancel')}
      </Button>
    </Popconfirm>
  );
}
