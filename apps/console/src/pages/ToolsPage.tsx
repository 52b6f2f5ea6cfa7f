import { Card, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useToolsQuery } from '../api/queries';
import { RISK_LEVELS, type CatalogTool, type RiskLevel } from '../api/types';
import { ErrorAlert } from '../components/ErrorAlert';
import { RiskBadge } from '../components/RiskBadge';
import { useT } from '../i18n';
import { ToolDrawer } from './tools/ToolDrawer';

function matches(tool: CatalogTool, text: string, risk: RiskLevel | undefined): boolean {
  if (risk && tool.risk.level !== risk) return false;
  const q = text.trim().toLowerCase();
  return !q || tool.name.toLowerCase().includes(q) || tool.description.toLowerCase().includes(q);
}

/** The tool catalog: every contract, its risk, policy, schemas, implementations and who binds it. */
export default function ToolsPage() {
  const t = useT();
  const tools = useToolsQuery();
  const [text, setText] = useState('');
  const [risk, setRisk] = useState<RiskLevel | undefined>();
  const [open, setOpen] = useState<CatalogTool | null>(null);
  const rows = useMemo(
    () => (tools.data ?? []).filter((x) => matches(x, text, risk)),
    [tools.data, text, risk],
  );

  return (
    <Card title={t('tools.title')} data-testid="tools-page">
      <ErrorAlert error={tools.error} onRetry={() => void tools.refetch()} />
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('tools.search')}
          style={{ width: 320 }}
          value={text}
          onChange={(e) => setText(e.target.value)}
          data-testid="tool-search"
        />
        <Select<RiskLevel>
          allowClear
          placeholder={t('common.risk')}
          style={{ width: 160 }}
          value={risk}
          onChange={setRisk}
          options={RISK_LEVELS.map((r) => ({ value: r, label: <RiskBadge level={r} /> }))}
        />
      </Space>
      <Table<CatalogTool>
        rowKey="name"
        size="middle"
        loading={tools.isLoading}
        dataSource={rows}
        locale={{ emptyText: t('tools.none') }}
        pagination={{
          pageSize: 20,
          hideOnSinglePage: true,
          showTotal: (total) => t('common.total', { total }),
        }}
        onRow={(record) => ({ onClick: () => setOpen(record), style: { cursor: 'pointer' } })}
        columns={[
          {
            title: t('tools.name'),
            dataIndex: 'name',
            width: 220,
            render: (name: string) => <Typography.Link code>{name}</Typography.Link>,
          },
          {
            title: t('common.risk'),
            width: 120,
            render: (_, r) => <RiskBadge level={r.risk.level} />,
          },
          {
            title: t('tools.description'),
            dataIndex: 'description',
            ellipsis: true,
          },
          {
            title: t('tools.timeout'),
            width: 110,
            render: (_, r) => t('common.msValue', { value: r.timeoutMs }),
          },
          {
            title: t('tools.approval'),
            width: 140,
            render: (_, r) => t(`approval.${r.approval}`),
          },
          {
            title: t('tools.implementations'),
            width: 180,
            render: (_, r) => r.implementations.map((i) => <Tag key={i.name}>{i.name}</Tag>),
          },
          {
            title: t('tools.boundBy'),
            width: 120,
            render: (_, r) =>
              r.boundBy.length ? r.boundBy.length : <Typography.Text type="secondary">0</Typography.Text>,
          },
        ]}
      />
      <ToolDrawer tool={open} onClose={() => setOpen(null)} />
    </Card>
  );
}
