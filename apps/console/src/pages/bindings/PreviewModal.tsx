import { Alert, Modal, Space, Table, Typography } from 'antd';
import type { BindingPreview, EffectiveTool } from '../../api/types';
import { RiskBadge } from '../../components/RiskBadge';
import { useT } from '../../i18n';
import { DiffView } from './DiffView';

/**
 * "What would this agent see, under which policy": the effective tool set and the diff a save
 * would give, with the problems that would make the gateway refuse it. Saving happens from here.
 */
export function PreviewModal(props: {
  preview: BindingPreview | null;
  baseVersion: number;
  /** The agent settings change as well (the diff is the tools'). */
  runChanged: boolean;
  saving: boolean;
  onSave: () => void;
  onClose: () => void;
}) {
  const t = useT();
  const p = props.preview;
  const stale = p !== null && p.currentVersion !== props.baseVersion;
  return (
    <Modal
      open={p !== null}
      width={920}
      title={p && t('bindings.previewTitle', { agentType: p.agentType })}
      okText={t('bindings.saveAs', { version: props.baseVersion + 1 })}
      okButtonProps={{ disabled: !p || p.problems.length > 0 }}
      confirmLoading={props.saving}
      onOk={props.onSave}
      onCancel={props.onClose}
      data-testid="preview-modal"
    >
      {p && (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          {stale && (
            <Alert
              type="warning"
              showIcon
              title={t('bindings.conflictTitle', { current: p.currentVersion })}
            />
          )}
          {p.problems.length > 0 && (
            <Alert
              type="error"
              showIcon
              title={t('bindings.problems')}
              description={p.problems.map((x) => (
                <div key={x.path + x.message}>{x.message}</div>
              ))}
            />
          )}
          <div>
            <Typography.Title level={5}>{t('bindings.diff')}</Typography.Title>
            <DiffView diff={p.diff} />
            {props.runChanged && (
              <div data-testid="preview-run-changed">
                <Typography.Text type="warning">{t('bindings.run.changed')}</Typography.Text>
              </div>
            )}
          </div>
          <div>
            <Typography.Title level={5}>{t('bindings.effective')}</Typography.Title>
            <Table<EffectiveTool>
              rowKey="name"
              size="small"
              pagination={false}
              dataSource={[...p.effective]}
              data-testid="effective-tools"
              columns={[
                {
                  title: t('common.tool'),
                  dataIndex: 'name',
                  render: (n: string) => <Typography.Text code>{n}</Typography.Text>,
                },
                {
                  title: t('common.risk'),
                  dataIndex: 'riskLevel',
                  render: (_, r) => <RiskBadge level={r.riskLevel} />,
                },
                { title: t('bindings.implementation'), dataIndex: 'implementation' },
                {
                  title: t('bindings.timeoutMs'),
                  render: (_, r) => (
                    <span>
                      {r.timeoutMs}
                      {r.timeoutMs !== r.declaredTimeoutMs && (
                        <Typography.Text type="secondary">
                          {' '}
                          ({t('bindings.declared')} {r.declaredTimeoutMs})
                        </Typography.Text>
                      )}
                    </span>
                  ),
                },
                {
                  title: t('bindings.approval'),
                  render: (_, r) => (
                    <span>
                      {t(`approval.${r.approval}`)}
                      {r.approval !== r.declaredApproval && (
                        <Typography.Text type="secondary">
                          {' '}
                          ({t('bindings.declared')} {t(`approval.${r.declaredApproval}`)})
                        </Typography.Text>
                      )}
                    </span>
                  ),
                },
                {
                  title: t('tools.dataDomains'),
                  dataIndex: 'dataDomains',
                  render: (d: string[]) => d.join(', '),
                },
              ]}
            />
          </div>
        </Space>
      )}
    </Modal>
  );
}
