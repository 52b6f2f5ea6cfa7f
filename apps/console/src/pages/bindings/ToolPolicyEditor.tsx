import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Space, Typography } from 'antd';
import { RULE_LIMITS } from '@toolgate/contract/rules';
import type { BindingTool, Issue } from '../../api/types';
import { useT } from '../../i18n';
import { GuardrailsForm } from './GuardrailsForm';
import { blankRule } from './policy-form';
import { RuleCard } from './RuleCard';

/**
 * One bound tool's rules, in the order they are tried, and its content guardrails (issue 26). The
 * gateway checks them on preview and save; its issues show under the field they name.
 */
export function ToolPolicyEditor(props: {
  entry: BindingTool;
  /** The binding row's index: issue paths start with `tools.<index>`. */
  index: number;
  /** The issues of this row. */
  issues: readonly Issue[];
  /** The tenant's approver groups. */
  groups: readonly string[];
  onChange: (entry: BindingTool) => void;
}) {
  const t = useT();
  const { entry, onChange } = props;
  const rules = entry.rules ?? [];
  const prefix = `tools.${props.index}`;
  const setRules = (next: BindingTool['rules']) =>
    onChange({ ...entry, rules: next?.length ? next : undefined });
  // Issues about the list itself (too many rules), not one of them.
  const listIssues = props.issues.filter((i) => i.path === `${prefix}.rules`);

  const move = (from: number, by: -1 | 1) => {
    const next = [...rules];
    const [moved] = next.splice(from, 1);
    next.splice(from + by, 0, moved!);
    setRules(next);
  };

  return (
    <div data-testid={`policy-${entry.name}`} style={{ padding: '4px 8px' }}>
      <Typography.Title level={5}>{t('bindings.rules.title')}</Typography.Title>
      {listIssues.length > 0 && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title={listIssues.map((i) => i.message).join('；')}
        />
      )}
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        {rules.length === 0 && (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('bindings.rules.empty')} />
        )}
        {rules.map((rule, j) => (
          <RuleCard
            key={j}
            rule={rule}
            index={j}
            count={rules.length}
            issues={props.issues}
            prefix={`${prefix}.rules.${j}`}
            groups={props.groups}
            onChange={(r) => setRules(rules.map((x, k) => (k === j ? r : x)))}
            onMove={(by) => move(j, by)}
            onRemove={() => setRules(rules.filter((_, k) => k !== j))}
          />
        ))}
        <Button
          type="dashed"
          icon={<PlusOutlined />}
          disabled={rules.length >= RULE_LIMITS.rulesPerTool}
          onClick={() => setRules([...rules, blankRule(rules)])}
          data-testid="rule-add"
        >
          {t('bindings.rules.add')}
        </Button>
      </Space>
      <GuardrailsForm
        guardrails={entry.guardrails}
        issues={props.issues}
        prefix={`${prefix}.guardrails`}
        onChange={(guardrails) => onChange({ ...entry, guardrails })}
      />
    </div>
  );
}
