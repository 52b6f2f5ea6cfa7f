import { Drawer, Empty, Space, Tag, Timeline, Typography } from 'antd';
import { useCallStoryQuery } from '../../api/queries';
import type { AuditEvent } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatTime } from '../../components/format';
import { PageSpinner } from '../../components/PageSpinner';
import { useI18n } from '../../i18n';
import { EventTag } from './EventTag';
import { PrincipalName } from './PrincipalName';
import { RunOfEvent } from './RunOfEvent';
import { useKeyNames } from './useKeyNames';

function colorOf(e: AuditEvent): string {
  if (e.event === 'started') return 'blue';
  if (e.event.startsWith('approval')) return 'orange';
  if (e.event === 'late_completion') return 'gray';
  if (e.status === 'error' || e.event === 'not_executed' || e.event === 'interrupted') return 'red';
  return 'green';
}

/** A call's whole story from `GET /v1/audit/calls/:callId`: started → approval → finished / late completion. */
export function CallTimeline(props: {
  callId: string | null;
  onClose: () => void;
  /** Stacking order: the page puts whichever drawer was opened last on top. */
  zIndex?: number;
  onOpenEvent: (e: AuditEvent) => void;
}) {
  const { t, language } = useI18n();
  const { callId } = props;
  const names = useKeyNames();
  const story = useCallStoryQuery(callId);
  const data = story.data;

  return (
    <Drawer
      open={callId !== null}
      onClose={props.onClose}
      zIndex={props.zIndex}
      size={560}
      title={callId && t('audit.timeline.title', { callId })}
      data-testid="call-timeline"
    >
      <ErrorAlert error={story.error} onRetry={() => void story.refetch()} />
      {story.isLoading && <PageSpinner />}
      {data && (
        <>
          <Space style={{ marginBottom: 16 }} wrap>
            <Tag color={data.complete ? 'success' : 'warning'} data-testid="timeline-state">
              {data.complete ? t('audit.timeline.complete') : t('audit.timeline.incomplete')}
            </Tag>
            <RunOfEvent events={data.events} />
          </Space>
          {data.events.length === 0 ? (
            <Empty />
          ) : (
            <Timeline
              items={data.events.map((e) => ({
                key: e.id,
                color: colorOf(e),
                content: (
                  <div data-testid="timeline-item" data-event={e.event}>
                    <Space wrap size={4}>
                      <EventTag event={e.event} status={e.status} />
                      <Typography.Text type="secondary">{formatTime(e.occurredAt, language)}</Typography.Text>
                      <Typography.Link onClick={() => props.onOpenEvent(e)}>#{e.id}</Typography.Link>
                    </Space>
                    <div>
                      <Typography.Text type="secondary">
                        <PrincipalName id={e.actor.id} type={e.actor.type} names={names} />
                        {e.approver?.id && (
                          <>
                            {` · ${t('audit.field.approver')} `}
                            <PrincipalName id={e.approver.id} names={names} />
                          </>
                        )}
                        {e.status ? ` · ${t(`audit.status.${e.status}`)}` : ''}
                        {e.code ? ` · ${e.code}` : ''}
                        {typeof e.durationMs === 'number'
                          ? ` · ${t('common.msValue', { value: e.durationMs })}`
                          : ''}
                      </Typography.Text>
                    </div>
                  </div>
                ),
              }))}
            />
          )}
        </>
      )}
    </Drawer>
  );
}
