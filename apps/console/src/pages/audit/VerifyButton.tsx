import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Button, Progress, Space } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useApiClient } from '../../api/ApiClientContext';
import { getVerifyJob, startVerifyJob } from '../../api/audit';
import type { AuditFilter, Verification, VerifyJob } from '../../api/types';
import { useT } from '../../i18n';

/** How often a running job is asked how far it got. */
const POLL_MS = 500;

/**
 * Verifies the whole hash chain of the filter's tenant (or every tenant the viewer reads) as a
 * background job (`POST /v1/audit/verify-jobs`), with its progress on screen: a full verification
 * of a long trail takes minutes, longer than one request should wait.
 */
export function VerifyButton(props: {
  filter: AuditFilter;
  onStart: () => void;
  onVerdict: (verdict: Verification) => void;
  onError: (error: unknown) => void;
}) {
  const t = useT();
  const api = useApiClient();
  const [job, setJob] = useState<VerifyJob | null>(null);
  const running = useRef<AbortController | null>(null);
  const { onVerdict, onError } = props;

  useEffect(() => () => running.current?.abort(), []);

  const follow = async (started: VerifyJob, abort: AbortController) => {
    let current = started;
    while (current.status === 'running') {
      await new Promise((r) => setTimeout(r, POLL_MS));
      if (abort.signal.aborted) return;
      current = await getVerifyJob(api, current.id, abort.signal);
      setJob(current);
    }
    if (current.status === 'done' && current.result) onVerdict(current.result);
    else onError(new Error(current.error ?? t('audit.verifyJobFailed')));
  };

  const start = async () => {
    running.current?.abort();
    const abort = new AbortController();
    running.current = abort;
    props.onStart();
    try {
      const started = await startVerifyJob(api, props.filter.tenantId || undefined);
      setJob(started);
      await follow(started, abort);
    } catch (err) {
      if (!abort.signal.aborted) onError(err);
    } finally {
      if (running.current === abort) {
        running.current = null;
        setJob(null);
      }
    }
  };

  const percent = job && job.total > 0 ? Math.min(100, Math.floor((job.checked / job.total) * 100)) : 0;
  return (
    <Space>
      <Button
        type="primary"
        icon={<SafetyCertificateOutlined />}
        loading={job !== null}
        onClick={() => void start()}
        data-testid="verify"
      >
        {t('audit.verify')}
      </Button>
      {job && (
        <Space data-testid="verify-progress">
          <Progress percent={percent} size="small" style={{ width: 160 }} />
          <span>{t('audit.verifyProgress', { checked: job.checked, total: job.total })}</span>
        </Space>
      )}
    </Space>
  );
}
