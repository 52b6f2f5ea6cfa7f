import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Form, Input, InputNumber, Row, Select, Space, Typography } from 'antd';
import {
  PI_CLASSES,
  RULE_LIMITS,
  type PiClass,
  type RuleLimit,
  type RuleOutcome,
  type ToolRule,
} from '@toolgate/contract/rules';
import type { Issue } from '../../api/types';
import { useT } from '../../i18n';
import { issuesUnder, RULE_OUTCOMES, withOutcome } from './policy-form';

const MINUTE = 60_000;
/** The fields this form shows, for issues that name none of them (shown on the card). */
const FIELDS = [
  'id',
  'when',
  'then',
  'reason',
  'approvers',
  'expiresInMs',
  'approverGroup',
  'mask',
  'limit',
] as const;

/**
 * One rule of a bound tool: its id, its CEL condition and its outcome, and the fields that outcome
 * takes — a reason in both languages (deny), approvers, expiry and approver group
 * (require_approval), the field paths and how they are masked (mask), the bucket (limit). The
 * gateway's issues about a field show under it.
 */
export function RuleCard(props: {
  rule: ToolRule;
  index: number;
  count: number;
  /** The issues of this rule (paths under `prefix`). */
  issues: readonly Issue[];
  prefix: string;
  /** The tenant's approver groups. */
  groups: readonly string[];
  onChange: (rule: ToolRule) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const t = useT();
  const { rule, onChange } = props;
  const at = issuesUnder(props.issues, props.prefix);
  const set = (patch: Partial<ToolRule>) => onChange({ ...rule, ...patch });
  const item = (field: (typeof FIELDS)[number], fallback?: string) => ({
    validateStatus: at.status(field),
    help: at.help(field) ?? fallback,
  });
  const reason = rule.reason ?? { en: '', zh: '' };
  const mask = rule.mask ?? {};
  const limit: RuleLimit = rule.limit ?? { max: 1, per: 'hour', scope: 'key' };
  // A group the tenant no longer has still shows (the gateway names it), never silently dropped.
  const groups =
    rule.approverGroup && !props.groups.includes(rule.approverGroup)
      ? [...props.groups, rule.approverGroup]
      : props.groups;
  const rest = at.rest(FIELDS);

  return (
    <Card
      size="small"
      data-testid={`rule-${props.index}`}
      data-rule-id={rule.id}
      data-then={rule.then}
      title={
        <Space size={4}>
          <Typography.Text type="secondary">#{props.index + 1}</Typography.Text>
          <Typography.Text code>{rule.id || '—'}</Typography.Text>
          <Typography.Text type="secondary">→ {t(`bindings.rules.then.${rule.then}`)}</Typography.Text>
        </Space>
      }
      extra={
        <Space size={0}>
          <Button
            type="text"
            size="small"
            icon={<ArrowUpOutlined />}
            disabled={props.index === 0}
            aria-label={t('bindings.rules.up')}
            onClick={() => props.onMove(-1)}
          />
          <Button
            type="text"
            size="small"
            icon={<ArrowDownOutlined />}
            disabled={props.index === props.count - 1}
            aria-label={t('bindings.rules.down')}
            onClick={() => props.onMove(1)}
          />
          <Button
            type="text"
            size="small"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('bindings.rules.remove')}
            data-testid="rule-remove"
            onClick={props.onRemove}
          />
        </Space>
      }
    >
      {rest.length > 0 && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="rule-issues"
          title={rest.map((i) => i.message).join('；')}
        />
      )}
      <Form layout="vertical" size="small" component="div">
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item label={t('bindings.rules.id')} {...item('id', t('bindings.rules.idHelp'))}>
              <Input
                value={rule.id}
                maxLength={64}
                onChange={(e) => set({ id: e.target.value })}
                data-testid="rule-id"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              label={t('bindings.rules.then')}
              {...item('then', rule.then === 'allow' ? t('bindings.rules.allowHelp') : undefined)}
            >
              <Select<RuleOutcome>
                value={rule.then}
                options={RULE_OUTCOMES.map((o) => ({ value: o, label: t(`bindings.rules.then.${o}`) }))}
                onChange={(then) => onChange(withOutcome(rule, then))}
                data-testid="rule-then"
              />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item label={t('bindings.rules.when')} {...item('when', t('bindings.rules.whenHelp'))}>
          <Input.TextArea
            value={rule.when}
            autoSize={{ minRows: 1, maxRows: 6 }}
            maxLength={RULE_LIMITS.expressionChars}
            placeholder={t('bindings.rules.whenPlaceholder')}
            style={{ fontFamily: 'monospace' }}
            onChange={(e) => set({ when: e.target.value })}
            data-testid="rule-when"
          />
        </Form.Item>

        {rule.then === 'deny' && (
          <Form.Item label={t('bindings.rules.reason')} {...item('reason', t('bindings.rules.reasonHelp'))}>
            <Space.Compact orientation="vertical" style={{ width: '100%' }}>
              <Input
                value={reason.zh}
                maxLength={RULE_LIMITS.reasonChars}
                prefix={<Typography.Text type="secondary">中文</Typography.Text>}
                onChange={(e) => set({ reason: { ...reason, zh: e.target.value } })}
                data-testid="rule-reason-zh"
              />
              <Input
                value={reason.en}
                maxLength={RULE_LIMITS.reasonChars}
                prefix={<Typography.Text type="secondary">EN</Typography.Text>}
                onChange={(e) => set({ reason: { ...reason, en: e.target.value } })}
                data-testid="rule-reason-en"
              />
            </Space.Compact>
          </Form.Item>
        )}

        {rule.then === 'require_approval' && (
          <Row gutter={16}>
            <Col xs={24} md={6}>
              <Form.Item
                label={t('bindings.rules.approvers')}
                {...item('approvers', t('bindings.rules.approversHelp', { max: RULE_LIMITS.approvers }))}
              >
                <InputNumber<number>
                  min={1}
                  max={RULE_LIMITS.approvers}
                  precision={0}
                  value={rule.approvers ?? null}
                  placeholder="1"
                  onChange={(v) => set({ approvers: v ?? undefined })}
                  style={{ width: '100%' }}
                  data-testid="rule-approvers"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item
                label={t('bindings.rules.expires')}
                {...item('expiresInMs', t('bindings.rules.expiresHelp'))}
              >
                <InputNumber<number>
                  min={1}
                  max={RULE_LIMITS.expiresInMs / MINUTE}
                  value={rule.expiresInMs !== undefined ? rule.expiresInMs / MINUTE : null}
                  onChange={(v) => set({ expiresInMs: v === null ? undefined : Math.round(v * MINUTE) })}
                  style={{ width: '100%' }}
                  data-testid="rule-expires"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={10}>
              <Form.Item
                label={t('bindings.rules.approverGroup')}
                {...item(
                  'approverGroup',
                  groups.length ? t('bindings.rules.approverGroupHelp') : t('bindings.rules.noGroups'),
                )}
              >
                <Select
                  allowClear
                  disabled={groups.length === 0}
                  value={rule.approverGroup}
                  placeholder={t('bindings.rules.anyApprover')}
                  options={groups.map((g) => ({ value: g, label: g }))}
                  onChange={(v?: string) => set({ approverGroup: v || undefined })}
                  data-testid="rule-approver-group"
                />
              </Form.Item>
            </Col>
          </Row>
        )}

        {rule.then === 'mask' && (
          <>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item label={t('bindings.rules.maskInput')} validateStatus={at.status('mask')}>
                  <Select
                    mode="tags"
                    suffixIcon={null}
                    notFoundContent={null}
                    tokenSeparators={[',', ' ', '，']}
                    value={mask.input ?? []}
                    placeholder={t('bindings.rules.maskPlaceholder')}
                    onChange={(v: string[]) => set({ mask: { ...mask, input: v } })}
                    data-testid="rule-mask-input"
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item label={t('bindings.rules.maskOutput')} validateStatus={at.status('mask')}>
                  <Select
                    mode="tags"
                    suffixIcon={null}
                    notFoundContent={null}
                    tokenSeparators={[',', ' ', '，']}
                    value={mask.output ?? []}
                    placeholder={t('bindings.rules.maskPlaceholder')}
                    onChange={(v: string[]) => set({ mask: { ...mask, output: v } })}
                    data-testid="rule-mask-output"
                  />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item
              label={t('bindings.rules.piClass')}
              {...item('mask', t('bindings.rules.maskHelp'))}
              data-testid="rule-mask-help"
            >
              <Select
                allowClear
                style={{ maxWidth: 360 }}
                value={mask.piClass}
                placeholder={t('bindings.rules.piClassDefault')}
                options={PI_CLASSES.map((c) => ({ value: c, label: t(`bindings.rules.piClass.${c}`) }))}
                onChange={(v?: PiClass) => set({ mask: { ...mask, piClass: v || undefined } })}
                data-testid="rule-mask-class"
              />
            </Form.Item>
          </>
        )}

        {rule.then === 'limit' && (
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item
                label={t('bindings.rules.limitMax')}
                {...item('limit', t('bindings.rules.limitHelp'))}
              >
                <InputNumber<number>
                  min={1}
                  max={RULE_LIMITS.limitMax}
                  precision={0}
                  value={limit.max}
                  onChange={(v) => set({ limit: { ...limit, max: v ?? 1 } })}
                  style={{ width: '100%' }}
                  data-testid="rule-limit-max"
                />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item label={t('bindings.rules.limitPer')}>
                <Select<RuleLimit['per']>
                  value={limit.per}
                  options={(['minute', 'hour', 'day'] as const).map((p) => ({
                    value: p,
                    label: t(`bindings.rules.limitPer.${p}`),
                  }))}
                  onChange={(per) => set({ limit: { ...limit, per } })}
                  data-testid="rule-limit-per"
                />
              </Form.Item>
            </Col>
            <Col xs={12} md={10}>
              <Form.Item label={t('bindings.rules.limitScope')}>
                <Select<'key' | 'tenant'>
                  value={limit.scope}
                  options={(['key', 'tenant'] as const).map((s) => ({
                    value: s,
                    label: t(`bindings.rules.limitScope.${s}`),
                  }))}
                  onChange={(scope) => set({ limit: { ...limit, scope } })}
                  data-testid="rule-limit-scope"
                />
              </Form.Item>
            </Col>
          </Row>
        )}
      </Form>
    </Card>
  );
}
