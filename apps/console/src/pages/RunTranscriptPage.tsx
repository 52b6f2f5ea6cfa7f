import { ArrowLeftOutlined, SyncOutlined } from '@ant-design/icons';
import { Button, Card, Space, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { isRunLive, RUN_POLL_MS, useRunQuery } from '../api/queries';
import { mayCancelRuns } from '../auth/access';
import { usePrincipal } from '../auth/AuthContext';
import { ErrorAlert } from '../components/ErrorAlert';
import { PageSpinner } from '../components/PageSpinner';
import { useT } from '../i18n';
import { CancelRunButton } from './runs/CancelRunButton';
import { RunSummary } from './runs/RunSummary';
import { Transcript } from './runs/Transcript';

/** One run as a transcript, at `/runs/:runId`; refreshed every 2 s until the run has finished. */
export default function RunTranscriptPage() {
  const t = useT();
  const me = usePrincipal();
  const navigate = useNavigate();
  const runId = useParams().runId ?? '';
  const query = useRunQuery(runId);
  const [actionError, setActionError] = useState<unknown>(null);
  const run = query.data;
  const live = run !== undefined && isRunLive(run.status);

  return (
    <Card
      data-testid="run-page"
      data-run-id={runId}
      data-status={run?.status}
      title={
        <Space>
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            onClick={() => navigate('/runs')}
            aria-label={t('runs.back')}
          />
          {t('runs.detail.title', { runId })}
        </Space>
      }
      extra={
        live && (
          <Space>
            <Typography.Text type="secondary" data-testid="run-live">
              <SyncOutlined spin /> {t('runs.autoRefresh', { seconds: RUN_POLL_MS / 1000 })}
            </Typography.Text>
            {mayCancelRuns(me.role) && <CancelRunButton runId={runId} onError={setActionError} />}
          </Space>
        )
      }
    >
      <ErrorAlert error={actionError} />
      <ErrorAlert error={query.error} onRetry={() => void query.refetch()} />
      {query.isLoading && <PageSpinner />}
      {run && (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <RunSummary run={run} />
          <Transcript run={run} />
        </Space>
      )}
    </Card>
  );
}
