import { Card, Space, Typography } from 'antd';
import type { RunView } from '../../api/types';
import { useT } from '../../i18n';
import { RunOutcome } from './RunOutcome';
import { StepView } from './StepView';

/** A run read as a conversation: the question, each model turn with its tool calls, the outcome. */
export function Transcript({ run }: { run: RunView }) {
  const t = useT();
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="run-transcript">
      <Card
        size="small"
        title={t('runs.question')}
        data-testid="run-question"
        style={{ background: '#f0f5ff' }}
      >
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{run.input}</Typography.Paragraph>
      </Card>
      {run.steps.map((step) => (
        <StepView key={step.index} step={step} />
      ))}
      <RunOutcome run={run} />
    </Space>
  );
}
