import { Table, Typography } from 'antd';
import type { UpstreamLiveTool } from '../../api/types';
import { useT } from '../../i18n';
import { ToolStatusTag } from './ToolStatusTag';

/** What the server lists right now; tools not imported yet can be chosen for import. */
export function LiveToolsTable(props: {
  tools: readonly UpstreamLiveTool[];
  loading: boolean;
  selected: readonly string[];
  onSelect: (names: string[]) => void;
}) {
  const t = useT();
  return (
    <Table<UpstreamLiveTool>
      rowKey={(tool) => tool.definition.name}
      size="small"
      loading={props.loading}
      dataSource={[...props.tools]}
      pagination={false}
      data-testid="live-tools"
      locale={{ emptyText: t('upstreams.noLiveTools') }}
      rowSelection={{
        selectedRowKeys: [...props.selected],
        onChange: (keys) => props.onSelect(keys.map(String)),
        getCheckboxProps: (tool) => ({ disabled: tool.imported }),
      }}
      columns={[
        {
          title: t('upstreams.upstreamTool'),
          render: (_, tool) => <Typography.Text code>{tool.definition.name}</Typography.Text>,
        },
        {
          title: t('upstreams.description'),
          render: (_, tool) => (
            <Typography.Paragraph
              ellipsis={{ rows: 2, tooltip: tool.definition.description }}
              style={{ margin: 0 }}
            >
              {tool.definition.description || '—'}
            </Typography.Paragraph>
          ),
        },
        {
          title: t('upstreams.imported'),
          render: (_, tool) =>
            tool.imported && tool.status ? (
              <>
                <Typography.Text code>{tool.toolgateName}</Typography.Text>{' '}
                <ToolStatusTag status={tool.status} />
              </>
            ) : (
              <Typography.Text type="secondary">{t('upstreams.notImported')}</Typography.Text>
            ),
        },
      ]}
    />
  );
}
