import { AutoComplete, Col, Collapse, Form, Input, InputNumber, Row, Select, Typography } from 'antd';
import { useState } from 'react';
import { AGENT_INSTRUCTIONS_MAX, AGENT_RUN_LIMITS } from '@toolgate/contract/rules';
import type { Issue } from '../../api/types';
import { useT } from '../../i18n';
import { runSettings, type RunForm } from './run-settings-form';

/** Model providers every platform has; others are typed in (the platform configuration names them). */
const KNOWN_PROVIDERS = [{ value: 'demo' }];

type Limit = keyof typeof AGENT_RUN_LIMITS;

/**
 * An agent type's run settings, compact: a one-line summary that opens into the model, the
 * instructions, the limits and the sub-agents. Opens by itself when the gateway named a problem
 * in them.
 */
export function AgentSettings(props: {
  form: RunForm;
  /** The tenant's other agent types: the sub-agents it may pick. */
  others: readonly string[];
  issues: readonly Issue[];
  onChange: (next: RunForm) => void;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const { form, onChange } = props;
  const runIssues = props.issues.filter((i) => i.path.startsWith('run.'));
  const settings = runSettings(form);
  const set = (patch: Partial<RunForm>) => onChange({ ...form, ...patch });
  const issueAt = (field: string) => runIssues.filter((i) => i.path.startsWith(`run.${field}`));
  const status = (field: string) => (issueAt(field).length ? ('error' as const) : undefined);
  const help = (field: string, fallback?: string) =>
    issueAt(field)
      .map((i) => i.message)
      .join('；') || fallback;

  const limit = (field: Limit, label: string) => {
    const { min, max } = AGENT_RUN_LIMITS[field];
    return (
      <Form.Item
        label={label}
        validateStatus={status(field)}
        help={help(field, t('bindings.run.range', { min, max }))}
      >
        <InputNumber
          min={min}
          max={max}
          step={field === 'deadlineMs' ? 1000 : 1}
          precision={0}
          value={form[field]}
          placeholder={String(AGENT_RUN_LIMITS[field].default)}
          onChange={(v) => set({ [field]: v })}
          style={{ width: '100%' }}
          data-testid={`run-${field}`}
        />
      </Form.Item>
    );
  };

  const summary = t('bindings.run.summary', {
    model: settings.model
      ? `${settings.model.provider}/${settings.model.name}`
      : t('bindings.run.platformDefault'),
    maxSteps: settings.maxSteps,
    seconds: settings.deadlineMs / 1000,
    parallel: settings.maxParallelToolCalls,
  });

  return (
    <Collapse
      size="small"
      style={{ marginBottom: 16 }}
      activeKey={open || runIssues.length ? ['run'] : []}
      onChange={(keys) => setOpen(keys.includes('run'))}
      data-testid="agent-settings"
      items={[
        {
          key: 'run',
          label: (
            <span>
              <Typography.Text strong>{t('bindings.run.title')}</Typography.Text>{' '}
              <Typography.Text type="secondary" data-testid="agent-settings-summary">
                {summary}
              </Typography.Text>
            </span>
          ),
          children: (
            <Form layout="vertical" size="small" component="div">
              <Row gutter={16}>
                <Col xs={24} md={8}>
                  <Form.Item
                    label={t('bindings.run.provider')}
                    validateStatus={status('model.provider') ?? status('model')}
                    help={help('model', t('bindings.run.providerHelp'))}
                  >
                    <AutoComplete
                      value={form.provider}
                      options={KNOWN_PROVIDERS}
                      placeholder={t('bindings.run.platformDefault')}
                      onChange={(v: string) => set({ provider: v })}
                      allowClear
                      data-testid="run-provider"
                    />
                  </Form.Item>
                </Col>
                <Col xs={24} md={8}>
                  <Form.Item label={t('bindings.run.modelName')} validateStatus={status('model.name')}>
                    <Input
                      value={form.modelName}
                      placeholder={t('bindings.run.modelPlaceholder')}
                      onChange={(e) => set({ modelName: e.target.value })}
                      allowClear
                      data-testid="run-model"
                    />
                  </Form.Item>
                </Col>
                <Col xs={24} md={8}>
                  <Form.Item
                    label={t('bindings.run.subAgents')}
                    validateStatus={status('subAgents')}
                    help={help('subAgents', t('bindings.run.subAgentsHelp'))}
                  >
                    <Select
                      mode="multiple"
                      value={[...form.subAgents]}
                      options={props.others.map((a) => ({ value: a, label: a }))}
                      onChange={(v: string[]) => set({ subAgents: v })}
                      allowClear
                      data-testid="run-subAgents"
                    />
                  </Form.Item>
                </Col>
              </Row>
              <Form.Item
                label={t('bindings.run.instructions')}
                validateStatus={status('instructions')}
                help={help('instructions')}
              >
                <Input.TextArea
                  value={form.instructions}
                  autoSize={{ minRows: 3, maxRows: 12 }}
                  maxLength={AGENT_INSTRUCTIONS_MAX}
                  showCount
                  placeholder={t('bindings.run.instructionsPlaceholder')}
                  onChange={(e) => set({ instructions: e.target.value })}
                  data-testid="run-instructions"
                />
              </Form.Item>
              <Row gutter={16}>
                <Col xs={12} md={6}>
                  {limit('maxSteps', t('bindings.run.maxSteps'))}
                </Col>
                <Col xs={12} md={6}>
                  {limit('deadlineMs', t('bindings.run.deadlineMs'))}
                </Col>
                <Col xs={12} md={6}>
                  {limit('maxParallelToolCalls', t('bindings.run.parallel'))}
                </Col>
                <Col xs={12} md={6}>
                  <Form.Item
                    label={t('bindings.run.tokenBudget')}
                    validateStatus={status('tokenBudget')}
                    help={help('tokenBudget')}
                  >
                    <InputNumber
                      min={1}
                      precision={0}
                      value={form.tokenBudget}
                      placeholder={t('bindings.run.unlimited')}
                      onChange={(v) => set({ tokenBudget: v })}
                      style={{ width: '100%' }}
                      data-testid="run-tokenBudget"
                    />
                  </Form.Item>
                </Col>
              </Row>
            </Form>
          ),
        },
      ]}
    />
  );
}
