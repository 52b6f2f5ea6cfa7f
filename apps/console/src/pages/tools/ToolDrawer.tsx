import { Descriptions, Drawer, Empty, Space, Table, Tabs, Tag, Typography } from 'antd';
import type { CatalogTool } from '../../api/types';
import { JsonView } from '../../components/JsonView';
import { RiskBadge } from '../../components/RiskBadge';
import { useT } from '../../i18n';

/** One tool in full: policy, the input and output JSON Schemas, implementations, bindings. */
export function ToolDrawer({ tool, onClose }: { tool: CatalogTool | null; onClose: () => void }) {
  const t = useT();
  return (
    <Drawer
      open={tool !== null}
      onClose={onClose}
      size={720}
      title={
        tool && (
          <Space>
            <Typography.Text code>{tool.name}</Typography.Text>
            <RiskBadge level={tool.risk.level} />
          </Space>
        )
      }
      data-testid="tool-drawer"
    >
      {tool && (
        <>
          <Typography.Paragraph>{tool.description}</Typography.Paragraph>
          <Descriptions
            size="small"
            column={2}
            bordered
            items={[
              {
                key: 'timeout',
                label: t('tools.timeout'),
                children: t('common.msValue', { value: tool.timeoutMs }),
              },
              { key: 'approval', label: t('tools.approval'), children: t(`approval.${tool.approval}`) },
              {
                key: 'domains',
                label: t('tools.dataDomains'),
                children: tool.risk.dataDomains.map((d) => <Tag key={d}>{d}</Tag>),
              },
              {
                key: 'personalInformation',
                label: t('tools.personalInformation'),
                children: tool.personalInformation.length
                  ? tool.personalInformation.map((c) => (
                      <Tag key={c} color={c === 'personal' ? 'blue' : 'red'}>
                        {t(`tools.piClass.${c}`)}
                      </Tag>
                    ))
                  : '—',
              },
              {
                key: 'estimated',
                label: t('tools.estimated'),
                children:
                  tool.risk.estimatedDurationMs === undefined
                    ? '—'
                    : t('common.msValue', { value: tool.risk.estimatedDurationMs }),
              },
              {
                key: 'deferred',
                label: t('tools.deferred'),
                children: tool.deferred ? t('common.yes') : t('common.no'),
              },
              {
                key: 'dynamic',
                label: t('tools.dynamic'),
                children: tool.dynamic ? t('common.yes') : t('common.no'),
              },
              {
                key: 'hash',
                label: t('tools.contractHash'),
                span: 2,
                children: (
                  <Typography.Text code copyable>
                    {tool.contractHash}
                  </Typography.Text>
                ),
              },
            ]}
          />
          <Tabs
            style={{ marginTop: 16 }}
            items={[
              {
                key: 'input',
                label: t('tools.inputSchema'),
                children: <JsonView value={tool.inputSchema} maxHeight={480} />,
              },
              {
                key: 'output',
                label: t('tools.outputSchema'),
                children:
                  tool.outputSchema === undefined ? (
                    <Empty description={t('tools.noOutputSchema')} />
                  ) : (
                    <JsonView value={tool.outputSchema} maxHeight={480} />
                  ),
              },
              {
                key: 'implementations',
                label: `${t('tools.implementations')} (${tool.implementations.length})`,
                children: (
                  <Table
                    rowKey="name"
                    size="small"
                    pagination={false}
                    dataSource={[...tool.implementations]}
                    columns={[
                      { title: t('tools.name'), dataIndex: 'name' },
                      { title: t('tools.source'), dataIndex: 'source' },
                      {
                        title: t('tools.definitionHash'),
                        dataIndex: 'definitionHash',
                        render: (h: string) => <Typography.Text code>{h.slice(0, 16)}…</Typography.Text>,
                      },
                    ]}
                  />
                ),
              },
              {
                key: 'boundBy',
                label: `${t('tools.boundBy')} (${tool.boundBy.length})`,
                children: (
                  <Table
                    rowKey={(b) => `${b.tenantId}/${b.agentType}`}
                    size="small"
                    pagination={false}
                    locale={{ emptyText: t('tools.notBound') }}
                    dataSource={[...tool.boundBy]}
                    columns={[
                      { title: t('common.tenant'), dataIndex: 'tenantId' },
                      { title: t('common.agentType'), dataIndex: 'agentType' },
                      {
                        title: t('tools.implementations'),
                        dataIndex: 'implementation',
                        render: (i: string | null) => i ?? t('tools.implDefault'),
                      },
                      { title: t('tools.version'), dataIndex: 'version', render: (v: number) => `v${v}` },
                    ]}
                  />
                ),
              },
            ]}
          />
        </>
      )}
    </Drawer>
  );
}
