import { Alert, Button, Space } from 'antd';
import type { BindingTool, BindingView } from '../../api/types';
import { formatTime } from '../../components/format';
import { useI18n } from '../../i18n';
import { diffTools } from './binding-rules';
import { DiffView } from './DiffView';

/** Someone else saved first: what they changed, and the two ways on. */
export function ConflictAlert(props: {
  baseVersion: number;
  baseTools: readonly BindingTool[];
  current: BindingView;
  onReload: () => void;
  onRebase: () => void;
}) {
  const { t, language } = useI18n();
  const c = props.current;
  return (
    <Alert
      type="error"
      showIcon
      data-testid="binding-conflict"
      style={{ marginBottom: 16 }}
      title={t('bindings.conflictTitle', { current: c.version })}
      description={
        <Space orientation="vertical" size={8} style={{ width: '100%' }}>
          <span>
            {t('bindings.conflictText', {
              base: props.baseVersion,
              current: c.version,
              by: c.updatedBy,
              at: formatTime(c.updatedAt, language),
            })}
          </span>
          <DiffView diff={diffTools(props.baseTools, c.tools)} />
          <Space wrap>
            <Button type="primary" onClick={props.onReload} data-testid="conflict-reload">
              {t('bindings.conflictReload')}
            </Button>
            <Button onClick={props.onRebase} data-testid="conflict-rebase">
              {t('bindings.conflictRebase')}
            </Button>
          </Space>
        </Space>
      }
    />
  );
}
