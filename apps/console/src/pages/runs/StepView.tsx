import { Card, Space, Typography } from 'antd';
import type { RunStep } from '../../api/types';
import { formatTime } from '../../components/format';
import { useI18n } from '../../i18n';
import { usageText } from './run-format';
import { ToolCallView } from './ToolCallView';

/** One model turn: what the model wrote and the tool calls it asked for. */
export function StepView({ step }: { step: RunStep }) {
  const { t, language } = useI18n();
  return (
    <Card
      size="small"
      data-testid="run-step"
      data-step={step.index}
      title={t('runs.step', { step: step.index + 1 })}
      extra={
        <Typography.Text type="secondary">
          {formatTime(step.startedAt, language)} · {usageText(step.usage, t)}
        </Typography.Text>
      }
    >
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        {step.text ? (
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }} data-testid="step-text">
            <Typography.Text type="secondary">{t('runs.stepText')}: </Typography.Text>
            {step.text}
          </Typography.Paragraph>
        ) : (
          step.toolCalls.length > 0 && <Typography.Text type="secondary">{t('runs.noText')}</Typography.Text>
        )}
        {step.toolCalls.map((call) => (
          <ToolCallView key={call.callId} call={call} />
        ))}
      </Space>
    </Card>
  );
}
