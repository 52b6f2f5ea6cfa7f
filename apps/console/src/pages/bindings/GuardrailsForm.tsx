import { Alert, Card, Checkbox, Col, Form, Row, Select, Space, Typography } from 'antd';
import type { GuardrailCheck, GuardrailPii, ToolGuardrails } from '@toolgate/contract/rules';
import type { Issue } from '../../api/types';
import { useT } from '../../i18n';
import { GUARDRAIL_ACTIONS, GUARDRAIL_PII, issuesUnder, withCheck, type GuardrailSide } from './policy-form';

/**
 * A bound tool's content guardrails (ADR 045): on the input before the tool runs and on the result
 * before it goes back to the model, which personal data (by the redactor's classes), secrets and —
 * on results — instruction-like text to look for, and what to do when found. A side that looks for
 * nothing is not written at all.
 */
export function GuardrailsForm(props: {
  guardrails: ToolGuardrails | undefined;
  /** The issues of this tool's guardrails (paths under `prefix`). */
  issues: readonly Issue[];
  prefix: string;
  onChange: (next: ToolGuardrails | undefined) => void;
}) {
  const t = useT();
  const at = issuesUnder(props.issues, props.prefix);
  const side = (which: GuardrailSide) => {
    const check: GuardrailCheck | undefined = props.guardrails?.[which];
    const set = (patch: Partial<GuardrailCheck>) => props.onChange(withCheck(props.guardrails, which, patch));
    const own = issuesUnder(at.all, `${props.prefix}.${which}`);
    return (
      <Card
        size="small"
        type="inner"
        title={t(`bindings.guard.${which}`)}
        data-testid={`guardrail-${which}`}
        data-on={check ? 'true' : 'false'}
      >
        {own.all.length > 0 && (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 12 }}
            title={own.all.map((i) => i.message).join('；')}
          />
        )}
        <Form layout="vertical" size="small" component="div">
          <Form.Item label={t('bindings.guard.pii')}>
            <Checkbox.Group<GuardrailPii>
              value={check?.pii ?? []}
              options={GUARDRAIL_PII.map((p) => ({ value: p, label: t(`bindings.guard.pii.${p}`) }))}
              onChange={(pii) => set({ pii })}
              data-testid="guardrail-pii"
            />
          </Form.Item>
          <Space orientation="vertical" size={4} style={{ marginBottom: 16 }}>
            <Checkbox
              checked={check?.secrets ?? false}
              onChange={(e) => set({ secrets: e.target.checked })}
              data-testid="guardrail-secrets"
            >
              {t('bindings.guard.secrets')}
            </Checkbox>
            {which === 'output' && (
              <Checkbox
                checked={check?.injection ?? false}
                onChange={(e) => set({ injection: e.target.checked })}
                data-testid="guardrail-injection"
              >
                {t('bindings.guard.injection')}
              </Checkbox>
            )}
          </Space>
          <Form.Item label={t('bindings.guard.action')}>
            <Select<GuardrailCheck['action']>
              style={{ maxWidth: 240 }}
              disabled={!check}
              value={check?.action}
              placeholder={t('bindings.guard.off')}
              options={GUARDRAIL_ACTIONS[which].map((a) => ({
                value: a,
                label: t(`bindings.guard.action.${a}`),
              }))}
              onChange={(action) => set({ action })}
              data-testid="guardrail-action"
            />
          </Form.Item>
        </Form>
      </Card>
    );
  };
  const loose = at.all.filter((i) => !/\.(input|output)(\.|$)/.test(i.path.slice(props.prefix.length)));

  return (
    <div data-testid="guardrails">
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('bindings.guard.title')}
      </Typography.Title>
      {loose.length > 0 && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title={loose.map((i) => i.message).join('；')}
        />
      )}
      <Row gutter={16}>
        <Col xs={24} md={12}>
          {side('input')}
        </Col>
        <Col xs={24} md={12}>
          {side('output')}
        </Col>
      </Row>
    </div>
  );
}
