import { Alert, Form, Input, InputNumber, Select, Space, Typography } from 'antd';
import { useImportUpstreamTools } from '../../api/mutations';
import {
  RISK_LEVELS,
  type ImportUpstreamToolsBody,
  type RiskLevel,
  type UpstreamImportResult,
  type UpstreamLiveTool,
} from '../../api/types';
import { FormModal } from '../../components/FormModal';
import { RiskBadge } from '../../components/RiskBadge';
import { useT } from '../../i18n';

const MAX_TIMEOUT_MS = 30_000;

/** One row per chosen tool, in the order of `tools` (the upstream name comes from there). */
interface ToolValues {
  toolgateName: string;
  /** No default: an upstream says nothing trustworthy about its own risk, so the admin must choose. */
  riskLevel?: RiskLevel;
  dataDomains?: string[];
  timeoutMs?: number | null;
}

interface Values {
  tools: ToolValues[];
  bindTo?: string[];
}

/** One chosen tool: its Toolgate name, a risk level (required), data domains and a time limit. */
function ToolFields({ index, tool, server }: { index: number; tool: UpstreamLiveTool; server: string }) {
  const t = useT();
  const form = Form.useFormInstance<Values>();
  const risk = Form.useWatch<RiskLevel | undefined>(['tools', index, 'riskLevel'], form);
  return (
    <div
      style={{
        border: '1px solid rgba(5,5,5,0.06)',
        borderRadius: 8,
        padding: '12px 16px',
        marginBottom: 12,
      }}
      data-testid="import-tool"
      data-tool={tool.definition.name}
    >
      <Space orientation="vertical" size={2} style={{ marginBottom: 8 }}>
        <Typography.Text strong code>
          {tool.definition.name}
        </Typography.Text>
        <Typography.Text type="secondary" ellipsis={{ tooltip: tool.definition.description }}>
          {tool.definition.description || '—'}
        </Typography.Text>
      </Space>
      <Space wrap align="start" size="middle">
        <Form.Item
          name={['tools', index, 'toolgateName']}
          initialValue={`${server}__${tool.definition.name}`}
          label={t('upstreams.toolgateName')}
          rules={[
            { required: true, whitespace: true, message: t('upstreams.import.nameRequired') },
            { max: 64 },
          ]}
        >
          <Input style={{ width: 260 }} data-testid="import-toolgate-name" />
        </Form.Item>
        <Form.Item
          name={['tools', index, 'riskLevel']}
          label={t('common.risk')}
          rules={[{ required: true, message: t('upstreams.import.riskRequired') }]}
        >
          <Select<RiskLevel>
            style={{ width: 160 }}
            placeholder={t('upstreams.import.pickRisk')}
            options={RISK_LEVELS.map((level) => ({ value: level, label: <RiskBadge level={level} /> }))}
            data-testid="import-risk"
          />
        </Form.Item>
        <Form.Item name={['tools', index, 'dataDomains']} label={t('upstreams.import.dataDomains')}>
          <Select mode="tags" style={{ width: 220 }} placeholder="crm, pii" tokenSeparators={[',', ' ']} />
        </Form.Item>
        <Form.Item name={['tools', index, 'timeoutMs']} label={t('upstreams.timeoutMs')}>
          <InputNumber
            min={1}
            max={MAX_TIMEOUT_MS}
            step={500}
            style={{ width: 140 }}
            placeholder={t('upstreams.import.inheritTimeout')}
          />
        </Form.Item>
      </Space>
      {risk === 'L3' && (
        <Alert
          type="warning"
          showIcon
          title={t('upstreams.import.l3Approval')}
          data-testid="import-l3-approval"
        />
      )}
    </div>
  );
}

/**
 * Imports chosen tools of a server. Each becomes a Toolgate tool pinned to the definition seen now;
 * binding it to agent types in the same step is a binding change (history and audit).
 */
export function ImportToolsModal(props: {
  tenantId: string;
  server: string;
  /** The tools chosen in the live list (at least one: the panel mounts the modal per opening). */
  tools: readonly UpstreamLiveTool[];
  agentTypes: readonly string[];
  onClose: () => void;
  onImported: (result: UpstreamImportResult) => void;
}) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const importTools = useImportUpstreamTools(props.tenantId, props.server);

  const submit = async (v: Values) => {
    const body: ImportUpstreamToolsBody = {
      tools: v.tools.map((tool, i) => ({
        name: props.tools[i]!.definition.name,
        riskLevel: tool.riskLevel as RiskLevel,
        toolgateName: tool.toolgateName.trim(),
        ...(tool.dataDomains?.length ? { dataDomains: tool.dataDomains } : {}),
        ...(tool.timeoutMs ? { timeoutMs: tool.timeoutMs } : {}),
      })),
    };
    if (v.bindTo?.length) body.bindTo = v.bindTo;
    props.onImported(await importTools.mutateAsync(body));
  };

  return (
    <FormModal<Values>
      open={props.tools.length > 0}
      title={t('upstreams.import.title', { server: props.server })}
      form={form}
      onSubmit={submit}
      onCancel={props.onClose}
      okText={t('upstreams.import.submit', { count: props.tools.length })}
    >
      {props.tools.map((tool, index) => (
        <ToolFields key={tool.definition.name} index={index} tool={tool} server={props.server} />
      ))}
      <Form.Item name="bindTo" label={t('upstreams.import.bindTo')} extra={t('upstreams.import.bindToHint')}>
        <Select
          mode="multiple"
          allowClear
          options={props.agentTypes.map((a) => ({ value: a, label: a }))}
          data-testid="import-bind-to"
        />
      </Form.Item>
    </FormModal>
  );
}
