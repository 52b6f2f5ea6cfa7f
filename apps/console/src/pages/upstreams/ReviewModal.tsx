import { App, Button, Descriptions, Modal, Popconfirm, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useReviewUpstreamTool } from '../../api/mutations';
import { useUpstreamDiffQuery } from '../../api/queries';
import { ErrorAlert } from '../../components/ErrorAlert';
import { shortHash } from '../../components/format';
import { PageSpinner } from '../../components/PageSpinner';
import { useT } from '../../i18n';
import { fieldAt, fieldText } from './line-diff';
import { LineDiff } from './LineDiff';
import { ToolStatusTag } from './ToolStatusTag';

/**
 * The review of a quarantined tool: which fingerprinted fields changed, each pinned beside pending,
 * then accept the new definition or keep the tool blocked. The decision carries the pending
 * fingerprint seen here, so a server that changed again meanwhile answers VERSION_CONFLICT instead
 * of having an unseen definition accepted.
 */
export function ReviewModal(props: {
  tenantId: string;
  server: string;
  /** The Toolgate name of the tool under review; null when closed. */
  tool: string | null;
  onClose: () => void;
}) {
  const t = useT();
  const { message } = App.useApp();
  const diff = useUpstreamDiffQuery(props.tenantId, props.server, props.tool);
  const review = useReviewUpstreamTool(props.tenantId, props.server);
  const [error, setError] = useState<unknown>(null);
  const data = diff.data;
  const pending = data?.pending ?? null;
  const reviewable = data?.status === 'quarantined' && data.pending !== null;

  const decide = async (decision: 'accept' | 'keep_blocked') => {
    if (!props.tool || !data?.pending) return;
    setError(null);
    try {
      await review.mutateAsync({ tool: props.tool, decision, fingerprint: data.pending.fingerprint });
      message.success(
        t(decision === 'accept' ? 'upstreams.review.accepted' : 'upstreams.review.keptBlocked'),
      );
      props.onClose();
    } catch (err) {
      setError(err);
      // A conflict means the server changed again: show the definition it has now.
      void diff.refetch();
    }
  };

  const close = () => {
    setError(null);
    props.onClose();
  };

  return (
    <Modal
      open={props.tool !== null}
      title={t('upstreams.review.title', { tool: props.tool ?? '' })}
      width={1100}
      onCancel={close}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={close}>{t('common.close')}</Button>
          <Popconfirm
            title={t('upstreams.review.keepConfirm')}
            onConfirm={() => decide('keep_blocked')}
            disabled={!reviewable}
          >
            <Button disabled={!reviewable} loading={review.isPending} data-testid="review-keep-blocked">
              {t('upstreams.review.keepBlocked')}
            </Button>
          </Popconfirm>
          <Popconfirm
            title={t('upstreams.review.acceptConfirm')}
            onConfirm={() => decide('accept')}
            okButtonProps={{ danger: true }}
            disabled={!reviewable}
          >
            <Button
              type="primary"
              disabled={!reviewable}
              loading={review.isPending}
              data-testid="review-accept"
            >
              {t('upstreams.review.accept')}
            </Button>
          </Popconfirm>
        </Space>
      }
    >
      <div data-testid="review-modal">
        <ErrorAlert error={diff.error} onRetry={() => void diff.refetch()} />
        <ErrorAlert error={error} />
        {diff.isLoading ? (
          <PageSpinner />
        ) : (
          data && (
            <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
              <Descriptions
                size="small"
                column={2}
                bordered
                items={[
                  {
                    key: 'name',
                    label: t('upstreams.toolgateName'),
                    children: <Typography.Text code>{data.toolgateName}</Typography.Text>,
                  },
                  {
                    key: 'status',
                    label: t('upstreams.status'),
                    children: <ToolStatusTag status={data.status} />,
                  },
                  {
                    key: 'pinned',
                    label: t('upstreams.diff.pinnedFingerprint'),
                    children: <Typography.Text code>{shortHash(data.pinned.fingerprint)}</Typography.Text>,
                  },
                  {
                    key: 'pending',
                    label: t('upstreams.diff.pendingFingerprint'),
                    children: data.pending ? (
                      <Typography.Text code>{shortHash(data.pending.fingerprint)}</Typography.Text>
                    ) : (
                      '—'
                    ),
                  },
                ]}
              />
              {pending ? (
                <>
                  <div data-testid="changed-fields">
                    <Typography.Text strong>{t('upstreams.diff.changedFields')}：</Typography.Text>
                    {data.changedFields.map((f) => (
                      <Tag key={f} color="orange" data-field={f}>
                        {f}
                      </Tag>
                    ))}
                  </div>
                  {data.changedFields.map((f) => (
                    <div key={f}>
                      <Typography.Title level={5} style={{ marginTop: 0 }}>
                        {f}
                      </Typography.Title>
                      <LineDiff
                        field={f}
                        before={fieldText(fieldAt(data.pinned.definition, f))}
                        after={fieldText(fieldAt(pending.definition, f))}
                      />
                    </div>
                  ))}
                </>
              ) : (
                <Typography.Text type="secondary">{t('upstreams.diff.nothingPending')}</Typography.Text>
              )}
            </Space>
          )
        )}
      </div>
    </Modal>
  );
}
