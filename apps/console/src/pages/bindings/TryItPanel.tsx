import { ExperimentOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Input, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { checkToolCall } from '../../api/admin';
import { useApiClient } from '../../api/ApiClientContext';
import type { ToolCallCheck } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useT } from '../../i18n';

const NEXT_COLOR: Record<ToolCallCheck['next'], string> = {
  run: 'success',
  park: 'warning',
  refuse: 'error',
};

/**
 * "Try it" (issue 26): what a call of one of the saved binding's tools with this input would meet
 * — which rule decides and what happens next (run, park for N approvers, refuse) — without running
 * anything. Decided as any agent key of the tenant; the saved version, not the draft on screen.
 */
export function TryItPanel(props: { tenantId: string; agentType: string; tools: readonly string[] }) {
  const t = useT();
  const api = useApiClient();
  const [tool, setTool] = useState<string | undefined>(props.tools[0]);
  const [input, setInput] = useState('{}');
  const [result, setResult] = useState<ToolCallCheck | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const check = async () => {
    if (!tool) return;
    setError(null);
    setResult(null);
    let parsed: unknown;
    try {
      parsed = JSON.parse(input);
    } catch {
      setError(new Error(t('bindings.tryIt.badJson')));
      return;
    }
    setBusy(true);
    try {
      setResult(await checkToolCall(api, props.tenantId, props.agentType, tool, { input: parsed }));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card size="small" title={t('bindings.tryIt.title')} style={{ marginTop: 16 }} data-testid="try-it">
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Select
          style={{ minWidth: 240 }}
          value={tool}
          onChange={setTool}
          options={props.tools.map((name) => ({ value: name, label: name }))}
          data-testid="try-it-tool"
        />
        <Input.TextArea
          rows={3}
          value={input}
          onChange={(e) => setInput(e.target.value)}
          style={{ fontFamily: 'monospace' }}
          data-testid="try-it-input"
        />
        <Button
          icon={<ExperimentOutlined />}
          onClick={() => void check()}
          loading={busy}
          data-testid="try-it-check"
        >
          {t('bindings.tryIt.check')}
        </Button>
        <ErrorAlert error={error} />
        {result && (
          <Alert
            type={result.next === 'run' ? 'success' : result.next === 'park' ? 'warning' : 'error'}
            data-testid="try-it-result"
            data-next={result.next}
            title={
              <Space>
                <Tag color={NEXT_COLOR[result.next]}>{t(`bindings.tryIt.next.${result.next}`)}</Tag>
                {result.next === 'park' && t('bindings.tryIt.approvers', { n: result.approvers ?? 1 })}
              </Space>
            }
            description={
              <Descriptions size="small" column={1}>
                <Descriptions.Item label={t('bindings.tryIt.rule')}>
                  {result.rule
                    ? `${result.rule.id} (v${result.rule.bindingVersion ?? '?'}, ${result.rule.then}${result.rule.failed ? ', failed' : ''})`
                    : t('bindings.tryIt.noRule')}
                </Descriptions.Item>
                {result.reason && (
                  <Descriptions.Item label={t('bindings.tryIt.reason')}>
                    {result.code}: {result.reason}
                  </Descriptions.Item>
                )}
                {result.approverGroup && (
                  <Descriptions.Item label={t('bindings.tryIt.approverGroup')}>
                    {result.approverGroup}
                  </Descriptions.Item>
                )}
                {result.masked && (
                  <Descriptions.Item label={t('bindings.tryIt.masked')}>
                    {[
                      ...result.masked.input.map((p) => `input.${p}`),
                      ...result.masked.output.map((p) => `output.${p}`),
                    ].join(', ')}
                  </Descriptions.Item>
                )}
                {result.limit && (
                  <Descriptions.Item label={t('bindings.tryIt.limit')}>
                    {`${result.limit.max} / ${result.limit.per} (${result.limit.scope})`}
                  </Descriptions.Item>
                )}
                {result.guardrail && (
                  <Descriptions.Item label={t('bindings.tryIt.guardrail')}>
                    {`${result.guardrail.found.join(', ')} → ${result.guardrail.action}`}
                  </Descriptions.Item>
                )}
              </Descriptions>
            }
          />
        )}
      </Space>
    </Card>
  );
}
