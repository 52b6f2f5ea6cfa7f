import { Descriptions, Typography } from 'antd';
import { Link } from 'react-router-dom';
import type { RunView } from '../../api/types';
import { formatTime } from '../../components/format';
import { useI18n } from '../../i18n';
import { ModelLabel } from './ModelLabel';
import { runDuration, usageText } from './run-format';
import { RunStatusTag } from './RunTags';

/** The facts of a run above its transcript: who ran, with which model, when, at what cost. */
export function RunSummary({ run }: { run: RunView }) {
  const { t, language } = useI18n();
  return (
    <Descriptions
      size="small"
      bordered
      column={{ xs: 1, md: 2, xl: 3 }}
      data-testid="run-summary"
      items={[
        { key: 'status', label: t('runs.field.status'), children: <RunStatusTag status={run.status} /> },
        {
          key: 'agentType',
          label: t('runs.field.agentType'),
          children: `${run.tenantId} / ${run.agentType}`,
        },
        { key: 'model', label: t('runs.field.model'), children: <ModelLabel model={run.model} /> },
        {
          key: 'sessionId',
          label: t('runs.field.sessionId'),
          children: <Link to={`/runs?sessionId=${encodeURIComponent(run.sessionId)}`}>{run.sessionId}</Link>,
        },
        { key: 'createdAt', label: t('runs.field.createdAt'), children: formatTime(run.createdAt, language) },
        {
          key: 'finishedAt',
          label: t('runs.field.finishedAt'),
          children: formatTime(run.finishedAt, language),
        },
        { key: 'duration', label: t('runs.field.duration'), children: runDuration(run, t) },
        { key: 'usage', label: t('runs.field.usage'), children: usageText(run.usage, t) },
        {
          key: 'parentRunId',
          label: t('runs.field.parentRunId'),
          children: run.parentRunId ? (
            <Link to={`/runs/${encodeURIComponent(run.parentRunId)}`}>{run.parentRunId}</Link>
          ) : (
            <Typography.Text type="secondary">—</Typography.Text>
          ),
        },
      ]}
    />
  );
}
