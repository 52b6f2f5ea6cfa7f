import { Button, Table, Tag, Typography } from 'antd';
import type { ImportedUpstreamTool } from '../../api/types';
import { formatTime } from '../../components/format';
import { RiskBadge } from '../../components/RiskBadge';
import { useI18n } from '../../i18n';
import { ToolStatusTag } from './ToolStatusTag';

/** The tools imported from one server: how they are governed and whether they may be called. */
export function ImportedToolsTable(props: {
  tools: readonly ImportedUpstreamTool[];
  loading: boolean;
  onReview: (toolgateName: string) => void;
}) {
  const { t, language } = useI18n();
  return (
    <Table<ImportedUpstreamTool>
      rowKey="toolgateName"
      size="small"
      loading={props.loading}
      dataSource={[...props.tools]}
      pagination={false}
      data-testid="imported-tools"
      locale={{ emptyText: t('upstreams.noImported') }}
      columns={[
        {
          title: t('upstreams.toolgateName'),
          dataIndex: 'toolgateName',
          render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
        },
        { title: t('upstreams.upstreamTool'), dataIndex: 'upstreamName' },
        {
          title: t('common.risk'),
          dataIndex: 'riskLevel',
          render: (v: ImportedUpstreamTool['riskLevel']) => <RiskBadge level={v} />,
        },
        {
          title: t('upstreams.import.dataDomains'),
          dataIndex: 'dataDomains',
          render: (v: string[]) => (v.length ? v.map((d) => <Tag key={d}>{d}</Tag>) : '—'),
        },
        {
          title: t('upstreams.timeoutMs'),
          dataIndex: 'timeoutMs',
          render: (v: number | null) =>
            v === null ? t('upstreams.inherit') : t('common.msValue', { value: v }),
        },
        {
          title: t('upstreams.status'),
          dataIndex: 'status',
          render: (v: ImportedUpstreamTool['status']) => <ToolStatusTag status={v} />,
        },
        {
          title: t('upstreams.reviewed'),
          render: (_, tool) =>
            tool.reviewedBy ? `${tool.reviewedBy} · ${formatTime(tool.reviewedAt, language)}` : '—',
        },
        {
          title: t('common.actions'),
          render: (_, tool) =>
            tool.status === 'quarantined' && (
              <Button
                size="small"
                danger
                onClick={() => props.onReview(tool.toolgateName)}
                data-testid="review-tool"
              >
                {t('upstreams.review')}
              </Button>
            ),
        },
      ]}
    />
  );
}
