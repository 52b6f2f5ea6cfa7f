import { Typography } from 'antd';
import { Link } from 'react-router-dom';
import type { AuditEvent } from '../../api/types';
import { canOpen } from '../../auth/access';
import { usePrincipal } from '../../auth/AuthContext';
import { useT } from '../../i18n';

/** The agent run an event belongs to (`details.runId`, and the step for a tool call's events). */
export function runOfEvent(e: AuditEvent): { runId: string; step: number | null } | null {
  const d = e.details as { runId?: unknown; step?: unknown } | null | undefined;
  if (typeof d?.runId !== 'string') return null;
  return { runId: d.runId, step: typeof d.step === 'number' ? d.step : null };
}

/** "Agent run run_… (step n)": a link to its transcript for viewers who may open the Runs page. */
export function RunOfEvent({ events }: { events: readonly AuditEvent[] }) {
  const t = useT();
  const me = usePrincipal();
  const run = events.map(runOfEvent).find((r) => r !== null);
  if (!run) return null;
  const text =
    run.step === null
      ? t('audit.run.of', { runId: run.runId })
      : t('audit.run.ofStep', { runId: run.runId, step: run.step + 1 }); // steps are shown from 1, as on the Runs page
  return canOpen(me, 'runs') ? (
    <Link to={`/runs/${encodeURIComponent(run.runId)}`} data-testid="event-run">
      {text}
    </Link>
  ) : (
    <Typography.Text type="secondary" data-testid="event-run">
      {text}
    </Typography.Text>
  );
}
