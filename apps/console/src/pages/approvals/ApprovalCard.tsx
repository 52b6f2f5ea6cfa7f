import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { Button, Col, Descriptions, Row, Space, Tag, Timeline, Typography } from 'antd';
import type { Approval } from '../../api/types';
import { formatTime } from '../../components/format';
import { JsonView } from '../../components/JsonView';
import { RiskBadge } from '../../components/RiskBadge';
import { useI18n } from '../../i18n';
import { ApprovalContextView } from './ApprovalContextView';
import type { Decision } from './DecisionModal';

const STATUS_COLORS = {
  pending: 'processing',
  approved: 'success',
  denied: 'error',
  expired: 'default',
} as const;

/** One approval request: what the agent wants to do, why, with which input, and the decisions so far. */
export function ApprovalCard({
  approval,
  onDecide,
}: {
  approval: Approval;
  onDecide: (d: Decision) => void;
}) {
  const { t, language } = useI18n();
  const a = approval;
  return (
    <div
      data-testid="approval-item"
      data-approval-id={a.approvalId}
      data-call-id={a.callId}
      data-tool={a.tool}
    >
      <Row gutter={24} align="top">
        <Col flex="auto" style={{ minWidth: 0 }}>
          <Space wrap style={{ marginBottom: 8 }}>
            <Typography.Text strong code style={{ fontSize: 15 }}>
              {a.tool}
            </Typography.Text>
            <RiskBadge level={a.riskLevel} />
            <Tag color={STATUS_COLORS[a.status]}>{t(`approvals.status.${a.status}`)}</Tag>
            <Typography.Text type="secondary">
              {a.tenantId} / {a.agentType}
            </Typography.Text>
          </Space>
          <Typography.Paragraph
            style={{ fontSize: 14, whiteSpace: 'pre-wrap' }}
            data-testid="approval-prompt"
          >
            {a.prompt}
          </Typography.Paragraph>
          <Descriptions
            size="small"
            column={{ xs: 1, md: 2, xl: 4 }}
            items={[
              { key: 'at', label: t('approvals.createdAt'), children: formatTime(a.createdAt, language) },
              { key: 'exp', label: t('approvals.expiresAt'), children: formatTime(a.expiresAt, language) },
              {
                key: 'progress',
                label: t('approvals.decisions'),
                children: t('approvals.progress', {
                  count: a.decisions.filter((d) => d.decision === 'approve').length,
                  required: a.requiredApprovals,
                }),
              },
              {
                key: 'call',
                label: t('approvals.callId'),
                children: (
                  <Typography.Text code copyable>
                    {a.callId}
                  </Typography.Text>
                ),
              },
            ]}
          />
          <ApprovalContextView approvalId={a.approvalId} requestedBy={a.requestedBy} />
          <Typography.Text type="secondary">{t('approvals.input')}</Typography.Text>
          <JsonView value={a.input} maxHeight={200} />
          {a.decisions.length > 0 && (
            <Timeline
              style={{ marginTop: 16 }}
              items={a.decisions.map((d) => ({
                key: `${d.approverId}-${d.decidedAt}`,
                color: d.decision.startsWith('approve') ? 'green' : 'red',
                content: (
                  <span>
                    {formatTime(d.decidedAt, language)} ·{' '}
                    <span title={d.approverId} data-testid="decision-approver">
                      {d.approverName ?? d.approverId}
                    </span>{' '}
                    · {d.decision.startsWith('approve') ? t('approvals.approve') : t('approvals.deny')}
                    {d.comment ? `：${d.comment}` : ''}
                  </span>
                ),
              }))}
            />
          )}
        </Col>
        {a.status === 'pending' && (
          <Col flex="120px">
            <Space orientation="vertical" style={{ width: '100%' }}>
              <Button
                type="primary"
                block
                icon={<CheckOutlined />}
                onClick={() => onDecide('approve')}
                data-testid="approve"
              >
                {t('approvals.approve')}
              </Button>
              <Button
                danger
                block
                icon={<CloseOutlined />}
                onClick={() => onDecide('deny')}
                data-testid="deny"
              >
                {t('approvals.deny')}
              </Button>
            </Space>
          </Col>
        )}
      </Row>
    </div>
  );
}
