import { DeleteOutlined, DownOutlined, RightOutlined } from '@ant-design/icons';
import { Button, InputNumber, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import type { ApprovalMode, BindingTool, CatalogTool, Issue } from '../../api/types';
import { RiskBadge } from '../../components/RiskBadge';
import { useT } from '../../i18n';
import { allowedApprovals } from './binding-rules';
import { ToolPolicyEditor } from './ToolPolicyEditor';

interface Props {
  readonly tools: readonly BindingTool[];
  readonly catalog: ReadonlyMap<string, CatalogTool>;
  readonly issues: ReadonlyMap<number, Issue[]>;
  /** The tenant's approver groups (its file's `approvals.groups`), which rules may name. */
  readonly groups: readonly string[];
  readonly onChange: (index: number, entry: BindingTool) => void;
  readonly onRemove: (index: number) => void;
}

const fieldIssue = (issues: Issue[] | undefined, field: string) =>
  issues?.filter((i) => i.path.endsWith(`.${field}`));

/** Issues about a tool's rules or guardrails: shown in its rules and guardrails form, by field. */
const isPolicyIssue = (i: Issue) => /^tools\.\d+\.(?:rules|guardrails)(?:\.|$)/.test(i.path);

/**
 * The tools of a binding with their overrides; each field shows the range the tool allows. A row
 * opens into its rules and guardrails (by its button, or by itself when the gateway named a
 * problem in them); other problems of a row show below it.
 */
export function ToolsTable({ tools, catalog, issues, groups, onChange, onRemove }: Props) {
  const t = useT();
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const rows = tools.map((entry, index) => {
    const rowIssues = issues.get(index) ?? [];
    const policyOpen = opened.has(entry.name) || rowIssues.some(isPolicyIssue);
    return { entry, index, tool: catalog.get(entry.name), rowIssues, policyOpen };
  });
  const toggle = (name: string) =>
    setOpened((o) => {
      const next = new Set(o);
      if (!next.delete(name)) next.add(name);
      return next;
    });

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
        expandedRowKeys: rows.filter((r) => r.policyOpen || r.rowIssues.length).map((r) => r.entry.name),
        showExpandColumn: false,
        expandedRowRender: (r) => {
          const others = r.rowIssues.filter((i) => !isPolicyIssue(i));
          return (
            <Space orientation="vertical" size={8} style={{ width: '100%' }}>
              {others.length > 0 && (
                <Space orientation="vertical" size={2} data-testid="row-issues">
                  {others.map((i) => (
                    <Typography.Text key={i.path + i.message} type="danger">
                      {i.message}
                    </Typography.Text>
                  ))}
                </Space>
              )}
              {r.policyOpen && (
                <ToolPolicyEditor
                  entry={r.entry}
                  index={r.index}
                  issues={r.rowIssues}
                  groups={groups}
                  onChange={(entry) => onChange(r.index, entry)}
                />
              )}
            </Space>
          );
        },
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
          title: t('bindings.policy.column'),
          width: 170,
          render: (_, { entry, policyOpen }) => (
            <Button
              size="small"
              icon={policyOpen ? <DownOutlined /> : <RightOutlined />}
              aria-expanded={policyOpen}
              aria-label={t('bindings.policy.open', { name: entry.name })}
              onClick={() => toggle(entry.name)}
              data-testid={`policy-open-${entry.name}`}
            >
              {t('bindings.policy.rules', { n: entry.rules?.length ?? 0 })}
              {entry.guardrails && (
                <Tag color="processing" style={{ marginInlineEnd: 0 }}>
                  {t('bindings.policy.guardrails')}
                </Tag>
              )}
            </Button>
          ),
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
