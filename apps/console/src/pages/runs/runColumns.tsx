import { Tag, Typography, type TableColumnsType } from 'antd';
import type { RunView } from '../../api/types';
import { formatTime } from '../../components/format';
import type { Language, Translate } from '../../i18n';
import { ModelLabel } from './ModelLabel';
import { runDuration } from './run-format';
import { RunStatusTag } from './RunTags';

/** The columns of the runs table (a row opens the run's transcript). */
export function runColumns(options: {
  t: Translate;
  language: Language;
  showTenant: boolean;
}): TableColumnsType<RunView> {
  const { t, language, showTenant } = options;
  return [
    ...(showTenant ? [{ title: t('common.tenant'), dataIndex: 'tenantId', width: 100 }] : []),
    {
      title: t('common.agentType'),
      dataIndex: 'agentType',
      width: 190,
      render: (v: string, run) => (
        <>
          {v}
          {run.parentRunId && (
            <Tag style={{ marginLeft: 6 }} title={run.parentRunId}>
              {t('runs.subAgent')}
            </Tag>
          )}
        </>
      ),
    },
    {
      title: t('runs.filter.status'),
      dataIndex: 'status',
      width: 120,
      render: (_, run) => <RunStatusTag status={run.status} />,
    },
    {
      title: t('runs.col.question'),
      dataIndex: 'input',
      ellipsis: true,
      render: (v: string) => <Typography.Text title={v}>{v}</Typography.Text>,
    },
    {
      title: t('runs.col.model'),
      dataIndex: 'model',
      width: 190,
      render: (v: string) => <ModelLabel model={v} />,
    },
    {
      title: t('runs.col.steps'),
      width: 70,
      align: 'right',
      render: (_, run) => run.steps.length,
    },
    {
      title: t('runs.col.tokens'),
      width: 90,
      align: 'right',
      render: (_, run) => run.usage.totalTokens,
    },
    {
      title: t('runs.col.started'),
      dataIndex: 'createdAt',
      width: 170,
      render: (v: string) => formatTime(v, language),
    },
    {
      title: t('runs.col.duration'),
      width: 100,
      align: 'right',
      render: (_, run) => runDuration(run, t),
    },
  ];
}
