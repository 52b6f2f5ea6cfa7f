import { DeleteOutlined } from '@ant-design/icons';
import { Button, InputNumber, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ApprovalMode, BindingTool, CatalogTool, Issue } from '../../api/types';
import { RiskBadge } from '../../components/RiskBadge';
import { useT } from '../../i18n';
import { allowedApprovals } from './binding-rules';

interface Props {
  readonly tools: readonly BindingTool[];
  readonly catalog: ReadonlyMap<string, CatalogTool>;
  readonly issues: ReadonlyMap<number, Issue[]>;
  readonly onChange: (index: number, entry: BindingTool) => void;
  readonly onRemove: (index: number) => void;
}

const fieldIssue = (issues: Issue[] | undefined, field: string) =>
  issues?.filter((i) => i.path.endsWith(`.${field}`));

/** The tools of a binding with their overrides; each field shows the range the tool allows. */
export function ToolsTable({ tools, catalog, issues, onChange, onRemove }: Props) {
  const t = useT();
  const rows = tools.map((entry, index) => ({ entry, index, tool: catalog.get(entry.name) }));

  return (
    <Table
      rowKey={(r) => r.entry.name}
      size="middle"
      pagination={false}
      dataSource={rows}
      locale={{ emptyText: t('bindings.empty') }}
      data-testid="binding-tools"
      onRow={(r) => ({ 'data-tool': r.entry.name }) as React.HTMLAttributes<HTMLElement>}
      expandable={{
        expandedRowKeys: rows.filter((r) => issues.has(r.index)).map((r) => r.entry.name),
        showExpandColumn: false,
        expandedRowRender: (r) => (
          <Space orientation="vertical" size={2} data-testid="row-issues">
            {(issues.get(r.index) ?? []).map((i) => (
              <Typography.Text key={i.path + i.message} type="danger">
                {i.message}
              </Typography.Text>
            ))}
          </Space>
        ),
      }}
      columns={[
        {
          title: t('common.tool'),
          render: (_, { entry, tool }) => (
            <Space orientation="vertical" size={0}>
              <Space size={4}>
                <Typography.Text code strong>
                  {entry.name}
                </Typography.Text>
                {tool ? (
                  <RiskBadge level={tool.risk.level} />
                ) : (
                  <Tag color="warning">{t('bindings.unknownTool')}</Tag>
                )}
              </Space>
              {tool && (
                <Typography.Text type="secondary" ellipsis style={{ maxWidth: 340 }}>
                  {tool.description}
                </Typography.Text>
              )}
            </Space>
          ),
        },
        {
          title: t('bindings.implementation'),
          width: 200,
          render: (_, { entry, index, tool }) => {
            const impls = tool?.implementations.map((i) => i.name) ?? [];
            const several = impls.length > 1;
            const bad =
              fieldIssue(issues.get(index), 'implementation')?.length || (several && !entry.implementation);
            return (
              <Select
                style={{ width: '100%' }}
                value={entry.implementation}
                allowClear={!several}
                status={bad ? 'error' : undefined}
                placeholder={several ? t('bindings.implRequired') : (impls[0] ?? '')}
                options={impls.map((name) => ({ value: name, label: name }))}
                onChange={(v?: string) => onChange(index, { ...entry, implementation: v || undefined })}
                data-testid={`impl-${entry.name}`}
              />
            );
          },
        },
        {
          title: t('bindings.timeoutMs'),
          width: 210,
          render: (_, { entry, index, tool }) => {
            const max = tool?.timeoutMs;
            return (
              <Space orientation="vertical" size={0} style={{ width: '100%' }}>
                <InputNumber<number>
                  style={{ width: '100%' }}
                  min={1}
                  max={max}
                  step={1000}
                  precision={0}
                  value={entry.timeoutMs ?? null}
                  status={fieldIssue(issues.get(index), 'timeoutMs')?.length ? 'error' : undefined}
                  placeholder={max ? t('bindings.timeoutPlaceholder', { max }) : undefined}
                  onChange={(v) => onChange(index, { ...entry, timeoutMs: v ?? undefined })}
                  data-testid={`timeout-${entry.name}`}
                />
                {max !== undefined && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('bindings.timeoutRange', { max })}
                  </Typography.Text>
                )}
              </Space>
            );
          },
        },
        {
          title: t('bindings.approval'),
          width: 210,
          render: (_, { entry, index, tool }) => {
            const allowed = tool ? allowedApprovals(tool) : [];
            const l0 = tool?.risk.level === 'L0';
            const select = (
              <Select<ApprovalMode>
                style={{ width: '100%' }}
                allowClear
                disabled={l0}
                value={entry.approval}
                status={fieldIssue(issues.get(index), 'approval')?.length ? 'error' : undefined}
                placeholder={
                  tool
                    ? t('bindings.approvalPlaceholder', { mode: t(`approval.${tool.approval}`) })
                    : undefined
                }
                options={allowed.map((m) => ({ value: m, label: t(`approval.${m}`) }))}
                onChange={(v?: ApprovalMode) => onChange(index, { ...entry, approval: v || undefined })}
                data-testid={`approval-${entry.name}`}
              />
            );
            return (
              <Space orientation="vertical" size={0} style={{ width: '100%' }}>
                {l0 ? <Tooltip title={t('bindings.approvalL0')}>{select}</Tooltip> : select}
                {tool && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {l0
                      ? t('bindings.approvalL0')
                      : t('bindings.approvalRange', { mode: t(`approval.${tool.approval}`) })}
                  </Typography.Text>
                )}
              </Space>
            );
          },
        },
        {
          title: t('common.actions'),
          width: 90,
          render: (_, { entry, index }) => (
            <Button
              danger
              type="text"
              icon={<DeleteOutlined />}
              aria-label={t('bindings.removeTool', { name: entry.name })}
              data-testid={`remove-${entry.name}`}
              onClick={() => onRemove(index)}
            >
              {t('bindings.remove')}
            </Button>
          ),
        },
      ]}
    />
  );
}
