import { Tag, Tooltip, Typography } from 'antd';
import { useT } from '../../i18n';

/** The built-in demo model's provider: answers come from a keyword planner, not a language model. */
const DEMO_PROVIDER = 'demo/';

/**
 * The model a run used, as `provider/model`. The offline demo planner says what it is, so nobody
 * mistakes its canned answers for a real model's.
 */
export function ModelLabel({ model }: { model: string }) {
  const t = useT();
  if (model.startsWith(DEMO_PROVIDER))
    return (
      <Tooltip title={t('runs.model.demoHint', { model })}>
        <Tag color="purple" data-testid="model-label" data-model={model}>
          {t('runs.model.demo')}
        </Tag>
      </Tooltip>
    );
  return (
    <Typography.Text code data-testid="model-label" data-model={model}>
      {model}
    </Typography.Text>
  );
}
